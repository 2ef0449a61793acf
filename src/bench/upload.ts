/**
 * Uploading one 200 MB file: multipart/form-data streamed from disk by the client to the
 * real server (its own process), beside a bare node:http server that streams the same
 * request body to disk. Both flush the file to disk before answering, as a 201 from the
 * service promises. Also the service's peak resident memory (VmHWM), whose goal is under
 * 150 MB: a file is never held in memory.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  createReadStream,
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
} from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { startRealServer } from '../server/testing/real-server.js';
import { format, interfaceBuild, peakRssMb, startBareServer } from './processes.js';

const token = 'xpat_bench-token-0123456789abcdefghijklmnop';
const megabyte = 1024 * 1024;
const fileBytes = 200 * megabyte;
const attempts = 3;
const ratioGoal = 0.9;
const rssGoalMb = 150;

/**
 * A PDF of one page, about 200 MB, written fast: nearly all of it an image stream of a
 * random block repeated. A whole, valid PDF, as a person uploads one; the service counts
 * its pages before it answers (files/pages.ts), as for any PDF. (This was random bytes
 * behind a PDF signature: a damaged PDF, whose count waits out its 5 s, so the benchmark
 * measured that wait rather than the upload.)
 */
async function writeLargeFile(path: string): Promise<{ sha256: string; size: number }> {
  const block = randomBytes(megabyte);
  const hash = createHash('sha256');
  let size = 0;
  const offsets: number[] = [];
  const text = (value: string) => Buffer.from(value, 'latin1');
  const object = (body: string) => {
    offsets.push(size);
    return text(`${offsets.length} 0 obj\n${body}\n`);
  };
  const imageBytes = fileBytes - 4 * 1024;
  function* content() {
    yield text('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n');
    yield object('<< /Type /Catalog /Pages 2 0 R >>\nendobj');
    yield object('<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj');
    yield object(
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R ' +
        '/Resources << /XObject << /Im1 5 0 R >> >> >>\nendobj',
    );
    yield object('<< /Length 0 >>\nstream\n\nendstream\nendobj');
    yield object(
      '<< /Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray ' +
        `/BitsPerComponent 8 /Length ${imageBytes} >>\nstream`,
    );
    for (let left = imageBytes; left > 0; left -= block.length)
      yield block.subarray(0, Math.min(left, block.length));
    yield text('\nendstream\nendobj\n');
    const xref = size;
    const entries = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`);
    yield text(`xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n${entries.join('')}`);
    yield text(
      `trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`,
    );
  }
  async function* counted() {
    for (const piece of content()) {
      hash.update(piece);
      size += piece.length;
      yield piece;
    }
  }
  await pipeline(counted, createWriteStream(path));
  return { sha256: hash.digest('hex'), size };
}

interface Upload {
  status: number;
  body: string;
  seconds: number;
}

/** POSTs the file as the one `file` part of a multipart body, read from disk as it goes. */
function uploadFile(url: string, path: string, size: number): Promise<Upload> {
  const boundary = `----extractor-bench-${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="large.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Content-Length': head.length + size + tail.length,
      },
    });
    request.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode!,
          body,
          seconds: (performance.now() - started) / 1000,
        }),
      );
      response.on('error', reject);
    });
    pipeline(async function* () {
      yield head;
      yield* createReadStream(path, { highWaterMark: megabyte });
      yield tail;
    }, request).catch(reject);
  });
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Both servers run side by side and take turns, the service first in one attempt and the
 * bare server first in the next: on a shared machine the disk and the other processes'
 * load change from one minute to the next, and each ratio then compares uploads made a
 * few seconds apart. BENCH_CPU_PROF (a directory) gets the service's CPU profile.
 */
export async function bench(): Promise<{ name: string; lines: string[] }> {
  const directory = mkdtempSync(join(tmpdir(), 'extractor-bench-upload-'));
  const dataDir = join(directory, 'data');
  const baselineDir = join(directory, 'baseline');
  const log = openSync(join(directory, 'server.log'), 'w');
  const profileDir = process.env.BENCH_CPU_PROF;
  try {
    const file = join(directory, 'large.pdf');
    const { sha256, size } = await writeLargeFile(file);
    mkdirSync(baselineDir);

    const server = await startRealServer({
      dataDir,
      env: {
        DIST_DIR: await interfaceBuild(),
        EXTRACTOR_ADMIN_TOKEN: token,
        MAX_UPLOAD_BYTES: String(size + megabyte),
      },
      stdio: log,
      nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    });
    const bare = await startBareServer('store', baselineDir);
    const serviceSeconds: number[] = [];
    const baselineSeconds: number[] = [];
    const rssBeforeMb = peakRssMb(server.pid);
    const bareStartMb = peakRssMb(bare.pid);
    let peakMb: number;
    let barePeakMb: number;
    try {
      const created = await fetch(`${server.baseUrl}/api/buckets`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: '{}',
      });
      const bucketPath = created.headers.get('location')!;
      const toService = async () => {
        const upload = await uploadFile(`${server.baseUrl}${bucketPath}/files`, file, size);
        if (upload.status !== 201)
          throw new Error(`The upload answered ${upload.status}: ${upload.body}`);
        const [stored] = JSON.parse(upload.body) as { id: string; sha256: string; size: number }[];
        if (stored?.sha256 !== sha256 || stored.size !== size)
          throw new Error('The service stored other bytes than were sent.');
        serviceSeconds.push(upload.seconds);
        // Keep the disk from filling up across attempts.
        await fetch(`${server.baseUrl}${bucketPath}/files/${stored.id}`, {
          method: 'DELETE',
          headers: { Authorization: `Bearer ${token}` },
        });
      };
      const toBare = async () => {
        const upload = await uploadFile(`${bare.baseUrl}/upload`, file, size);
        if (upload.status !== 201) throw new Error(`The baseline answered ${upload.status}.`);
        baselineSeconds.push(upload.seconds);
        rmSync(join(baselineDir, `upload-${baselineSeconds.length - 1}`), { force: true });
      };
      for (let attempt = 0; attempt < attempts; attempt++) {
        for (const upload of attempt % 2 === 0 ? [toService, toBare] : [toBare, toService])
          await upload();
      }
      peakMb = peakRssMb(server.pid);
      barePeakMb = peakRssMb(bare.pid);
    } finally {
      await Promise.all([server.stop(), bare.stop()]);
    }

    const throughput = (seconds: number) => size / megabyte / seconds;
    const service = throughput(median(serviceSeconds));
    const baseline = throughput(median(baselineSeconds));
    return {
      name: `Upload of one ${format.number(size / megabyte)} MB PDF, multipart, streamed from disk (median of ${attempts}, in turns)`,
      lines: [
        `service          ${format.number(service).padStart(5)} MB/s`,
        `bare node:http   ${format.number(baseline).padStart(5)} MB/s (stream to disk)`,
        `ratio            ${format.number(service / baseline, 2)} (goal >= ${ratioGoal}: ${format.verdict(service / baseline >= ratioGoal)})`,
        `peak RSS         ${format.number(peakMb)} MB (${format.number(rssBeforeMb)} MB at start; goal < ${rssGoalMb} MB: ${format.verdict(peakMb < rssGoalMb)})`,
        // Node itself keeps received socket buffers until a GC: the bare server grows too.
        `bare peak RSS    ${format.number(barePeakMb)} MB (${format.number(bareStartMb)} MB at start)`,
      ],
    };
  } finally {
    closeSync(log);
    rmSync(directory, { recursive: true, force: true });
  }
}
