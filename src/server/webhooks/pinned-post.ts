/**
 * One webhook POST over node:http(s), connected to the addresses the address policy checked.
 * Node's `lookup` option replaces the DNS resolution of the connection, so the name is not
 * resolved a second time (DNS rebinding); TLS still verifies the certificate against the
 * URL's host name. Redirects are not followed: the Standard Webhooks retry rules count a 3xx
 * as a failure, and following one would send the body to an address nobody checked.
 *
 * The policy is applied once more here, on the very addresses the connection may use: a
 * target built or changed anywhere else still cannot reach an internal address.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isInternalAddress, type WebhookTarget } from './address-policy.js';

export interface PostAnswer {
  status: number;
  /** The start of the answer's body, for the delivery's last_error. */
  bodyStart: string;
}

/** How much of an answer is kept; receivers owe us a status, not a document. */
const bodyKeptBytes = 512;

/** The pinned addresses the policy lets a connection use. */
function allowedAddresses(target: WebhookTarget): WebhookTarget['addresses'] {
  return target.allowPrivate
    ? target.addresses
    : target.addresses.filter((entry) => !isInternalAddress(entry.address));
}

function pinnedLookup(addresses: WebhookTarget['addresses']): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
    const usable = addresses.filter((entry) => wanted === undefined || entry.family === wanted);
    const first = usable[0];
    if (!first) {
      callback(
        Object.assign(new Error(`no IPv${wanted} address was checked`), { code: 'ENOTFOUND' }),
        '',
        4,
      );
    } else if (options.all) {
      (callback as unknown as (error: null, entries: typeof usable) => void)(null, usable);
    } else {
      callback(null, first.address, first.family);
    }
  };
}

export function postToTarget(
  target: WebhookTarget,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<PostAnswer> {
  const { url } = target;
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const payload = Buffer.from(body, 'utf8');
  const addresses = allowedAddresses(target);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // Node connects to an address literal without asking `lookup`, so it is checked here.
  if (addresses.length === 0 || (isIP(host) && !addresses.some((entry) => entry.address === host)))
    return Promise.reject(
      new Error(`webhookUrl ${host} is a loopback, private or link-local address`),
    );
  return new Promise<PostAnswer>((resolve, reject) => {
    const request = send({
      method: 'POST',
      host,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      headers: { ...headers, 'content-length': String(payload.length) },
      lookup: pinnedLookup(addresses),
      // A fresh connection per attempt: a pooled socket may have been opened to another address.
      agent: false,
    });
    // One deadline for the whole exchange, connect to last byte, so a receiver that trickles
    // its answer cannot hold a delivery (and a clean shutdown) forever.
    const timer = setTimeout(
      () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(error);
    };
    request.on('error', fail);
    request.on('response', (response: IncomingMessage) => {
      const kept: Buffer[] = [];
      let keptBytes = 0;
      response.on('data', (chunk: Buffer) => {
        if (keptBytes < bodyKeptBytes) {
          kept.push(chunk);
          keptBytes += chunk.length;
        }
      });
      response.on('error', fail);
      response.on('close', () => {
        if (!response.complete)
          fail(new Error('the connection closed before the answer was complete'));
      });
      response.on('end', () => {
        clearTimeout(timer);
        resolve({
          status: response.statusCode ?? 0,
          bodyStart: Buffer.concat(kept).subarray(0, bodyKeptBytes).toString('utf8'),
        });
      });
    });
    request.end(payload);
  });
}
