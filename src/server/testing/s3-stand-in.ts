/**
 * A stand-in for S3 on loopback, as the LLM provider has one: s3rver in a process of its own
 * (so that what the tests measure of their own process's memory is the service's, not the
 * stand-in's), with one bucket, in a temporary directory removed when it stops.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { S3ClientConfig } from '@aws-sdk/client-s3';
import { projectRoot } from './real-server.js';

export interface S3StandIn {
  bucket: string;
  endpoint: string;
  /** What a client needs beyond the endpoint: s3rver's fixed credentials and a region. */
  clientConfig: S3ClientConfig;
  /** The same as environment variables, as the service reads them. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startS3StandIn(bucket = 'extractor-files'): Promise<S3StandIn> {
  const directory = mkdtempSync(join(tmpdir(), 'extractor-s3-'));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 's3-stand-in-process.ts'), directory, bucket],
    { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let printed = '';
  child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    void exited.then(() => reject(new Error(`The S3 stand-in exited:\n${printed}`)));
  });
  const { port } = JSON.parse(line) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  return {
    bucket,
    endpoint,
    clientConfig: { endpoint, region: 'us-east-1', credentials },
    env: {
      AWS_ENDPOINT_URL: endpoint,
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      AWS_REGION: 'us-east-1',
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
