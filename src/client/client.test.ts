import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error.js';
import {
  ExtractorClient,
  filenameFromDisposition,
  filesOfBucket,
  TokenKindError,
} from './client.js';
import { documentsOfRun } from './run-documents.js';
import {
  completedRun,
  createExtractor,
  mintSession,
  partlyCompletedRun,
  recordOf,
  startSession,
  textFile,
  waitForRun,
} from './testing/fixtures.js';

describe('ExtractorClient against the real service', () => {
  it('refuses a personal access token outright', () => {
    expect(() => new ExtractorClient({ baseUrl: '', token: 'xpat_secret' })).toThrow(
      TokenKindError,
    );
  });

  it('reads the session, its extractor and its bucket, checked against the contract', async () => {
    const { client, extractor, bucketId } = await startSession({
      introductionViewHeading: 'Hello',
    });
    const session = await client.getCurrentSession();
    expect(session.savedExtractor).toBe(`/api/extractors/${extractor.id}`);
    const loaded = await client.getExtractor(extractor.id);
    expect(loaded.introductionViewHeading).toBe('Hello');
    const bucket = await client.getBucket(bucketId);
    expect(filesOfBucket(bucket)).toEqual([]);
  });

  it('reads the session’s locale and strings, which the interface speaks by', async () => {
    const extractor = await createExtractor();
    const strings = { 'upload.dropHint': 'Rechnungen hier ablegen' };
    const session = await mintSession(extractor, { locale: 'de-at', strings });
    const client = new ExtractorClient({ baseUrl: window.location.origin, token: session.token });
    expect(await client.getCurrentSession()).toMatchObject({ locale: 'de-AT', strings });
    const plain = await mintSession(extractor);
    const plainClient = new ExtractorClient({
      baseUrl: window.location.origin,
      token: plain.token,
    });
    expect(await plainClient.getCurrentSession()).toMatchObject({ locale: null, strings: {} });
  });

  it('uploads with progress, lists and deletes files', async () => {
    const { client, bucketId } = await startSession();
    const progress: number[] = [];
    const [file] = await client.uploadFile(bucketId, textFile('a.txt'), {
      onProgress: (loaded) => progress.push(loaded),
    });
    expect(file?.name).toBe('a.txt');
    expect(progress.length).toBeGreaterThan(0);
    expect(filesOfBucket(await client.getBucket(bucketId)).map((f) => f.name)).toEqual(['a.txt']);
    await client.deleteFile(bucketId, file!.id);
    expect(filesOfBucket(await client.getBucket(bucketId))).toEqual([]);
  });

  it('turns a refused upload into the service’s own words', async () => {
    const { client, bucketId } = await startSession();
    const fake = new File([new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 1, 2, 3, 4])], 'program.pdf', {
      type: 'application/pdf',
    });
    const error = await client.uploadFile(bucketId, fake).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(415);
    expect((error as ApiError).message.length).toBeGreaterThan(10);
  });

  it('starts a run, and a run over an empty bucket is refused with a reason', async () => {
    const { client, bucketId, extractor } = await startSession();
    const refused = await client
      .startRun(bucketId, extractor.id)
      .catch((caught: unknown) => caught);
    expect((refused as ApiError).status).toBe(422);
    await client.uploadFile(bucketId, textFile());
    const run = await client.startRun(bucketId, extractor.id);
    expect(run.status).toBe('queued');
    expect((await waitForRun(client, run.id)).status).toBe('completed');
  });

  it('saves edits as drafts, reports the pointer of a bad value at submission, downloads and submits', async () => {
    const { client, run } = await completedRun();
    const [document] = documentsOfRun(run);
    const data = { ...(document!.data as object), total: 99.5 };

    // A draft the schema does not accept is kept; submitting it is refused, with a pointer.
    const draft = await client.saveDocumentResults(run.id, document!.fileId, {
      ...data,
      total: 'many',
    });
    // Apart from the records, which the schema accepts; the interface reads it back from there.
    expect(recordOf(draft.editedResultJson)).toBeNull();
    expect(documentsOfRun(draft)[0]!.data).toMatchObject({ total: 'many' });
    const bad = await client.submitResults(run.id).catch((caught: unknown) => caught);
    expect((bad as ApiError).status).toBe(422);
    expect((bad as ApiError).fieldErrors.map((error) => error.pointer)).toContain(
      '/documents/0/data/total',
    );

    const saved = await client.saveDocumentResults(run.id, document!.fileId, data);
    expect(recordOf(saved.editedResultJson)).toMatchObject({ total: 99.5 });

    const download = await client.downloadResults(run.id, 'json');
    expect(download.filename).toMatch(/\.json$/);
    expect(recordOf(await download.blob.text())).toMatchObject({ total: 99.5 });

    const submission = await client.submitResults(run.id);
    expect(submission.run).toContain(run.id);
    const again = await client.submitResults(run.id).catch((caught: unknown) => caught);
    expect((again as ApiError).status).toBe(409);
  });

  it('replaces the file of a document that could not be read, and just that one is read again', async () => {
    const { client, run, bucketId } = await partlyCompletedRun();
    const [read, failed] = documentsOfRun(run);
    expect([read!.status, failed!.status]).toEqual(['completed', 'failed']);
    await client.saveDocumentResults(run.id, read!.fileId, {
      ...(read!.data as object),
      invoice_number: 'EDITED-1',
    });
    const progress: number[] = [];
    const reopened = await client.replaceDocumentFile(
      run.id,
      failed!.fileId,
      textFile('fixed.txt'),
      { onProgress: (loaded) => progress.push(loaded) },
    );
    expect(progress.length).toBeGreaterThan(0);
    expect(reopened.status).toBe('queued');
    const done = await waitForRun(client, run.id);
    expect(done.status).toBe('completed');
    const documents = documentsOfRun(done);
    expect(documents.map((document) => [document.name, document.status])).toEqual([
      ['invoice.txt', 'completed'],
      ['fixed.txt', 'completed'],
    ]);
    expect(documents[0]!.data).toMatchObject({ invoice_number: 'EDITED-1' });
    expect(documents[1]!.data).toMatchObject({ invoice_number: 'INV-2024-001' });
    expect(filesOfBucket(await client.getBucket(bucketId)).map((file) => file.name)).toEqual([
      'invoice.txt',
      'fixed.txt',
    ]);
    // A document that was read cannot be replaced: it is not a failure to put right.
    const refused = await client
      .replaceDocumentFile(run.id, documents[0]!.fileId, textFile('other.txt'))
      .catch((caught: unknown) => caught);
    expect((refused as ApiError).status).toBe(409);
  });

  it('reads file names from Content-Disposition', () => {
    expect(
      filenameFromDisposition(`attachment; filename="a_b.csv"; filename*=UTF-8''a%C3%A9b.csv`),
    ).toBe('aéb.csv');
    expect(filenameFromDisposition('attachment; filename="plain.xml"')).toBe('plain.xml');
    expect(filenameFromDisposition(null)).toBeUndefined();
  });
});
