/**
 * The files of a bucket list in the order they were sent, also when one upload brings many
 * within the same millisecond (their ids alone are ordered only to the millisecond).
 */
import { expect, it } from 'vitest';
import type { BucketFile } from '../../contract/resources.js';
import { createBucket, upload } from '../testing/fixtures.js';
import { useTestService } from '../testing/test-service.js';

const service = useTestService();

it('lists the files of one upload in the order they were sent, every time', async () => {
  // Names in an order no sort would give, so only the upload order can explain the listing.
  const names = Array.from({ length: 20 }, (_, index) => `note-${(index * 7) % 20}.txt`);
  for (let round = 0; round < 5; round++) {
    const bucket = await createBucket(service);
    const response = await upload(
      service,
      bucket.id,
      names.map((name) => ({ name, bytes: `Invoice ${name}`, type: 'text/plain' })),
    );
    expect(response.status).toBe(201);
    const listed = (await (
      await service.json('GET', `/api/buckets/${bucket.id}/files`)
    ).json()) as BucketFile[];
    expect(listed.map((file) => file.name)).toEqual(names);
  }
});
