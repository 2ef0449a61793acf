/**
 * A real small file system for tests of a full disk: a tmpfs of a few megabytes mounted on
 * a new directory, which the test fills until the kernel itself answers ENOSPC. Mounting
 * needs root (CI runs the tests as root); anyone else is told so, not skipped.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SmallDisk {
  /** Where it is mounted: the DATA_DIR of the service under test. */
  path: string;
  /** Writes a file of filler until the disk has no room left for one byte more. */
  fill(): void;
  /** Removes the filler: the room it took is free again. */
  free(): void;
  /** Unmounts it and removes its directory; everything on it is gone. */
  unmount(): void;
}

export function mountSmallDisk(megabytes: number): SmallDisk {
  if (process.getuid?.() !== 0) {
    throw new Error(
      'The full-disk tests mount a small tmpfs (mount -t tmpfs) and so must run as root, ' +
        'as CI runs them. Run this test file as root.',
    );
  }
  const path = mkdtempSync(join(tmpdir(), 'extractor-small-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', path]);
  const filler = join(path, 'filler');
  return {
    path,
    fill() {
      const handle = openSync(filler, 'a');
      try {
        // Large writes first, then ever smaller ones into whatever is left.
        for (const size of [1024 * 1024, 64 * 1024, 4096, 512, 1]) {
          const chunk = Buffer.alloc(size, 0x2e);
          try {
            for (;;) writeSync(handle, chunk);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          }
        }
      } finally {
        closeSync(handle);
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    unmount() {
      execFileSync('umount', ['-l', path]);
      rmSync(path, { recursive: true, force: true });
    },
  };
}
