import { describe, expect, it } from 'vitest';
import { runSchema } from '../contract/resources.js';
import { countDocuments, documentsOfRun, fileIdOf, parseResults } from './run-documents.js';
import { startSession, textFile, withDocuments } from './testing/fixtures.js';

async function queuedRun() {
  const session = await startSession();
  await session.client.uploadFile(session.bucketId, textFile());
  return session.client.startRun(session.bucketId, session.extractor.id);
}

describe('documentsOfRun', () => {
  it('joins each document’s state and progress with its own record, in the run’s order', async () => {
    const run = withDocuments(
      await queuedRun(),
      [
        { name: 'b.pdf', status: 'completed', data: { invoice_number: 'B-2' } },
        { name: 'a.pdf', status: 'failed', error: 'a.pdf could not be read as a PDF' },
        { name: 'c.pdf', status: 'running', data: { invoice_number: 'C-' }, chunksTotal: 4 },
      ],
      'running',
    );
    const documents = documentsOfRun(run);
    expect(
      documents.map(({ name, status, data, error, chunksTotal }) => ({
        name,
        status,
        data,
        error,
        chunksTotal,
      })),
    ).toEqual([
      {
        name: 'b.pdf',
        status: 'completed',
        data: { invoice_number: 'B-2' },
        error: null,
        chunksTotal: 1,
      },
      {
        name: 'a.pdf',
        status: 'failed',
        data: undefined,
        error: 'a.pdf could not be read as a PDF',
        chunksTotal: null,
      },
      {
        name: 'c.pdf',
        status: 'running',
        data: { invoice_number: 'C-' },
        error: null,
        chunksTotal: 4,
      },
    ]);
    expect(documents[0]!.fileId).toBe('test-file-1');
    expect(countDocuments(run)).toEqual({ total: 3, completed: 1, failed: 1 });
    // The same run object gives the same list: views may call it in every render.
    expect(documentsOfRun(run)).toBe(documents);
  });

  it('reads the records of a settled run from its data (edits included), not the partial text', async () => {
    const base = withDocuments(
      await queuedRun(),
      [{ name: 'a.pdf', status: 'completed', data: { invoice_number: 'EDITED' } }],
      'completed',
    );
    const run = { ...base, partialResultJson: '{"documents":[]}', partialData: base.data };
    expect(documentsOfRun(run)[0]!.data).toEqual({ invoice_number: 'EDITED' });
  });

  it('shows documents without records when the results text does not read', async () => {
    const base = withDocuments(
      await queuedRun(),
      [{ name: 'a.pdf', status: 'running' }],
      'running',
    );
    const run = { ...base, partialResultJson: '{"documents": [{"file": ', partialData: null };
    expect(documentsOfRun(run).map((document) => [document.name, document.data])).toEqual([
      ['a.pdf', undefined],
    ]);
    expect(parseResults('{"not": "results"}')).toEqual([]);
    expect(documentsOfRun(undefined)).toEqual([]);
  });

  it('reads a failure code it does not know as none, keeping the service’s words', async () => {
    const error = 'a.pdf could not be read as a PDF; it may be damaged';
    const run = withDocuments(
      await queuedRun(),
      [{ name: 'a.pdf', status: 'failed', error, errorCode: 'damaged_file' }],
      'failed',
    );
    expect(documentsOfRun(runSchema.parse(run))[0]).toMatchObject({
      errorCode: 'damaged_file',
      error,
    });
    // A later service may know more kinds of failure than this interface: the run still reads.
    const later = JSON.parse(JSON.stringify(run)) as { documents: Record<string, unknown>[] };
    later.documents[0]!.errorCode = 'a_code_from_a_later_version';
    expect(documentsOfRun(runSchema.parse(later))[0]).toMatchObject({ errorCode: null, error });
  });

  it('takes a file’s id from its IRI', () => {
    expect(fileIdOf('/api/buckets/b1/files/f%201')).toBe('f 1');
    expect(fileIdOf('/api/buckets/b1/files/%E0%A4%A')).toBe('%E0%A4%A');
  });
});
