/**
 * The stand-in object store's own process (s3-stand-in.ts starts it): s3rver, which speaks
 * S3's protocol and keeps objects in `directory`, on a loopback port of its choosing. It
 * prints the port as one JSON line, then serves until it is told to stop.
 */
import S3rver from 's3rver';

const [directory, bucket] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory,
  configureBuckets: [{ name: bucket!, configs: [] }],
});
const address = await server.run();
process.stdout.write(`${JSON.stringify({ port: address.port })}\n`);
process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
