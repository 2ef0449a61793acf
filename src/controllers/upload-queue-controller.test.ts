import { LitElement } from 'lit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ExtractorClient, filesOfBucket } from '../client/client.js';
import { startSession, textFile } from '../client/testing/fixtures.js';
import type { BucketFile } from '../contract/resources.js';
import { formatBytes } from '../locales/format.js';
import { checkFile, UploadQueueController } from './upload-queue-controller.js';

class UploadingHost extends LitElement {}
customElements.define('test-uploading-host', UploadingHost);

const hosts: HTMLElement[] = [];
afterEach(() => hosts.splice(0).forEach((host) => host.remove()));

function attach() {
  const host = document.createElement('test-uploading-host');
  const uploaded: BucketFile[] = [];
  const reports: { files: string[]; busy: boolean }[] = [];
  const queue: UploadQueueController = new UploadQueueController(host as UploadingHost, {
    onUploaded: (files) => {
      uploaded.push(...files);
      reports.push({ files: files.map((file) => file.name).sort(), busy: queue.busy });
    },
  });
  document.body.append(host);
  hosts.push(host);
  return { queue, uploaded, reports };
}

describe('checkFile', () => {
  it('explains a file of a kind we cannot read, an empty one and one too large', () => {
    expect(checkFile(new File(['x'], 'movie.mov', { type: 'video/quicktime' }))).toMatch(
      /“movie.mov” is not a kind of file we can read/,
    );
    expect(checkFile(new File([], 'empty.pdf', { type: 'application/pdf' }))).toBe(
      '“empty.pdf” is empty.',
    );
    expect(checkFile(new File(['0123456789'], 'big.txt', { type: 'text/plain' }), 4)).toBe(
      `“big.txt” is 10${'\u00a0'}byte; a file can be at most 4${'\u00a0'}byte.`,
    );
    // Just over a limit rounds to the limit's text: the message does not contradict itself.
    expect(checkFile(new File(['x'.repeat(2049)], 'over.txt', { type: 'text/plain' }), 2048)).toBe(
      `“over.txt” is larger than the 2${'\u00a0'}kB a file can be.`,
    );
    expect(checkFile(new File(['x'], 'scan.PDF'))).toBeUndefined();
    expect(checkFile(new File(['x'], 'image', { type: 'image/png' }))).toBeUndefined();
    expect(formatBytes(50 * 1024 * 1024)).toBe(`50${'\u00a0'}MB`);
  });
});

describe('UploadQueueController', () => {
  it('refuses wrong files before sending and uploads the rest into the bucket', async () => {
    const { client, bucketId } = await startSession();
    const { queue, uploaded, reports } = attach();
    queue.target = { client, bucketId };
    queue.add([
      textFile('one.txt'),
      new File(['x'], 'clip.mp4', { type: 'video/mp4' }),
      textFile('two.txt'),
    ]);
    expect(queue.value.map((item) => item.status)).toEqual(['uploading', 'rejected', 'uploading']);
    await vi.waitFor(() => expect(queue.busy).toBe(false));
    // One report, once nothing was left on its way: a bucket reloaded then cannot hold a
    // file whose upload still shows as in progress.
    expect(reports).toEqual([{ files: ['one.txt', 'two.txt'], busy: false }]);
    expect(queue.value.map((item) => item.status)).toEqual(['done', 'rejected', 'done']);
    expect(uploaded.map((file) => file.name)).toEqual(
      expect.arrayContaining(['one.txt', 'two.txt']),
    );
    const names = filesOfBucket(await client.getBucket(bucketId)).map((file) => file.name);
    expect(names.sort()).toEqual(['one.txt', 'two.txt']);
  });

  it('waits for a target, keeps a failed upload with its reason, and retries it', async () => {
    const { client, bucketId, session } = await startSession();
    const { queue } = attach();
    const [item] = queue.add([textFile('later.txt')]);
    expect(item!.status).toBe('queued');
    // Nothing listens on port 9: the upload fails as it would with the network down.
    queue.target = {
      client: new ExtractorClient({ baseUrl: 'http://127.0.0.1:9', token: session.token }),
      bucketId,
    };
    await vi.waitFor(() => expect(queue.value[0]!.status).toBe('failed'));
    expect(queue.value[0]!.message).toMatch(/could not reach the service/);
    queue.target = { client, bucketId };
    queue.retry(item!.key);
    await vi.waitFor(() => expect(queue.value[0]!.status).toBe('done'));
    expect(filesOfBucket(await client.getBucket(bucketId)).map((file) => file.name)).toEqual([
      'later.txt',
    ]);
  });

  it('shows the service’s reason when it refuses a file, offers no retry for it, and forgets dismissed items', async () => {
    const { client, bucketId } = await startSession();
    const { queue } = attach();
    queue.target = { client, bucketId };
    const [item] = queue.add([
      new File([new Uint8Array([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0])], 'setup.pdf', {
        type: 'application/pdf',
      }),
    ]);
    // Sending it again would be refused again: it is rejected, not failed.
    await vi.waitFor(() => expect(queue.value[0]!.status).toBe('rejected'));
    expect(queue.value[0]!.message?.length).toBeGreaterThan(10);
    queue.dismiss(item!.key);
    expect(queue.value).toEqual([]);
  });
});
