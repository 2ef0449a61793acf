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
const rssGoalMb = 150;

/** 200 MB behind a PDF signature, from a random block repeated: accepted, and written fast. */
async function writeLargeFile(path: string): Promise<string> {
  const signature = Buffer.from('%PDF-1.7\n');
  const block = randomBytes(megabyte);
  const hash = createHash('sha256');
  async function* content() {
    let written = 0;
    for (const chunk of [signature, ...Array.from({ length: fileBytes / megabyte }, () => block)]) {
      const piece = chunk.subarray(0, Math.min(chunk.length, fileBytes - written));
      if (piece.length === 0) break;
      hash.update(piece);
      written += piece.length;
      yield piece;
    }
  }
  await pipeline(content, createWriteStream(path));
  return hash.digest('hex');
}

interface Upload {
  status: number;
  body: string;
  seconds: number;
}

/** POSTs the file as the one `file` part of a multipart body, read from disk as it goes. */
function uploadFile(url: string, path: string): Promise<Upload> {
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
        'Content-Length': head.length + fileBytes + tail.length,
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
const throughput = (seconds: number) => fileBytes / megabyte / seconds;

export async function bench(): Promise<{ name: string; lines: string[] }> {
  const directory = mkdtempSync(join(tmpdir(), 'extractor-bench-upload-'));
  const dataDir = join(directory, 'data');
  const baselineDir = join(directory, 'baseline');
  const log = openSync(join(directory, 'server.log'), 'w');
  try {
    const file = join(directory, 'large.pdf');
    const sha256 = await writeLargeFile(file);
    mkdirSync(baselineDir);

    const server = await startRealServer({
      dataDir,
      env: {
        DIST_DIR: await interfaceBuild(),
        EXTRACTOR_ADMIN_TOKEN: token,
        MAX_UPLOAD_BYTES: String(fileBytes + megabyte),
      },
      stdio: log,
    });
    const serviceSeconds: number[] = [];
    let rssBeforeMb: number;
    let peakMb: number;
    try {
      rssBeforeMb = peakRssMb(server.pid);
      const created = await fetch(`${server.baseUrl}/api/buckets`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: '{}',
      });
      const bucketPath = created.headers.get('location')!;
      for (let attempt = 0; attempt < attempts; attempt++) {
        const upload = await uploadFile(`${server.baseUrl}${bucketPath}/files`, file);
        if (upload.status !== 201)
          throw new Error(`The upload answered ${upload.status}: ${upload.body}`);
        const [stored] = JSON.parse(upload.body) as { id: string; sha256: string; size: number }[];
        if (stored?.sha256 !== sha256 || stored.size !== fileBytes)
          throw new Error('The service stored other bytes than were sent.');
        serviceSeconds.push(upload.seconds);
        // Keep the disk from filling up across attempts.
        await fetch(`${server.baseUrl}${bucketPath}/files/${stored.id}`, {
          method: 'DELETE',
          headers: { Authorization: `Bearer ${token}` },
        });
      }
      peakMb = peakRssMb(server.pid);
    } finally {
      await server.stop();
    }

    const bare = await startBareServer('store', baselineDir);
    const baselineSeconds: number[] = [];
    const bareStartMb = peakRssMb(bare.pid);
    let barePeakMb: number;
    try {
      for (let attempt = 0; attempt < attempts; attempt++) {
        const upload = await uploadFile(`${bare.baseUrl}/upload`, file);
        if (upload.status !== 201) throw new Error(`The baseline answered ${upload.status}.`);
        baselineSeconds.push(upload.seconds);
        rmSync(join(baselineDir, `upload-${attempt}`), { force: true });
      }
      barePeakMb = peakRssMb(bare.pid);
    } finally {
      await bare.stop();
    }

    const service = throughput(median(serviceSeconds));
    const baseline = throughput(median(baselineSeconds));
    return {
      name: `Upload of one ${fileBytes / megabyte} MB file, multipart, streamed from disk (median of ${attempts})`,
      lines: [
        `service          ${format.number(service).padStart(5)} MB/s`,
        `bare node:http   ${format.number(baseline).padStart(5)} MB/s (stream to disk)`,
        `ratio            ${format.number(service / baseline, 2)}`,
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
