/**
 * The browser tests need Debian's Chromium at /usr/bin/chromium (or CHROMIUM_PATH).
 * When it is missing and we run as root, install it with apt; otherwise say exactly what
 * to install. Playwright's own browser download is never used: it needs the internet.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (!existsSync(path)) {
  const isRoot = process.getuid?.() === 0;
  if (!isRoot) {
    process.stderr.write(
      `The browser tests need Chromium at ${path}.\n` +
        'Install it with:  sudo apt-get update && sudo apt-get install -y chromium\n' +
        '(or set CHROMIUM_PATH to a Chromium or Chrome binary), then run the tests again.\n',
    );
    process.exit(1);
  }
  process.stdout.write(`Chromium is missing at ${path}; installing Debian's chromium package…\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', 'chromium'], { stdio: 'inherit', env });
  if (!existsSync(path)) {
    process.stderr.write(`apt-get finished but ${path} is still missing.\n`);
    process.exit(1);
  }
}
