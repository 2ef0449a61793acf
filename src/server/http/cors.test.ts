import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbedSession } from '../../contract/resources.js';
import { createExtractor, createSession } from '../testing/fixtures.js';
import { startTestService, type TestService } from '../testing/test-service.js';

let service: TestService;
let session: EmbedSession;
let closedSession: EmbedSession;

const partner = 'https://partner.example';

beforeAll(async () => {
  service = await startTestService();
  const extractor = await createExtractor(service);
  session = await createSession(service, {
    savedExtractor: extractor.id,
    allowedOrigins: [partner],
  });
  closedSession = await createSession(service, { savedExtractor: extractor.id });
});

afterAll(async () => {
  await service.dispose();
});

function fromOrigin(path: string, origin: string, token: string | null): Promise<Response> {
  return service.request(path, { headers: { Origin: origin, Accept: 'application/json' }, token });
}

describe('CORS on /api', () => {
  it('lets a page at an origin the session allows read the answer', async () => {
    const response = await fromOrigin(session.bucket, partner, session.token);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(partner);
    expect(response.headers.get('access-control-expose-headers')).toContain('Location');
    expect(response.headers.get('vary')).toContain('Origin');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('gives no other origin the answer, even a look-alike', async () => {
    for (const origin of [
      'https://evil.example',
      'http://partner.example',
      'https://partner.example.evil.example',
      'null',
    ]) {
      const response = await fromOrigin(session.bucket, origin, session.token);
      expect(response.status, origin).toBe(200);
      expect(response.headers.get('access-control-allow-origin'), origin).toBeNull();
      expect(response.headers.get('vary')).toContain('Origin');
    }
  });

  it('gives nobody the answer for a session that allows no origin', async () => {
    const response = await fromOrigin(closedSession.bucket, partner, closedSession.token);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('never answers CORS to a personal access token, which has no place in a browser', async () => {
    const response = await service.request('/api/extractors', {
      headers: { Origin: partner, Accept: 'application/json' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('lets an embed read a 401, so it can say that the session ended', async () => {
    const response = await fromOrigin(session.bucket, partner, 'xses_not-a-session-token-at-all');
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe(partner);
  });

  it('answers a preflight, which carries no token, with the methods and headers only', async () => {
    const response = await service.request(session.bucket, {
      method: 'OPTIONS',
      token: null,
      headers: {
        Origin: partner,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')).toContain('Authorization');
    expect(await response.text()).toBe('');
  });
});
