import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectProblem } from '../../testing/fixtures.js';
import { useTestService } from '../../testing/test-service.js';
import { openApiDocument } from '../api.js';
import { httpMethods, type OpenApiDocument } from '../openapi/objects.js';
import { problemTypes } from '../problem.js';
import { renderDocsPage } from './docs.js';

describe('/api/docs.json and /api/docs', () => {
  const service = useTestService();

  it('serves the OpenAPI document without a token, as JSON or application/openapi+json', async () => {
    const plain = await service.request('/api/docs.json', { token: null });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
    const document = (await plain.json()) as OpenApiDocument;
    expect(document).toMatchObject({
      openapi: '3.1.0',
      info: { version: '1.0.0' },
      servers: [{ url: 'http://extractor.test' }],
    });

    const typed = await service.request('/api/docs.json', {
      token: null,
      headers: { Accept: 'application/openapi+json' },
    });
    expect(typed.headers.get('content-type')).toMatch(/^application\/openapi\+json/);
    await typed.body?.cancel();
    await expectProblem(
      await service.request('/api/docs.json', { token: null, headers: { Accept: 'text/csv' } }),
      406,
    );
  });

  it('serves a page with every operation, every problem anchor and a hash-pinned stylesheet', async () => {
    const response = await service.request('/api/docs', {
      token: null,
      headers: { Accept: 'text/html' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const page = await response.text();

    const document = await openApiDocument(service.config.publicBaseUrl);
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of httpMethods) {
        const operation = item[method];
        if (!operation) continue;
        expect(page, operation.operationId).toContain(`id="op-${operation.operationId}"`);
        expect(page).toContain(
          `<span class="method">${method.toUpperCase()}</span> <code>${path}</code>`,
        );
      }
    }
    for (const slug of Object.keys(problemTypes)) expect(page).toContain(`id="problem-${slug}"`);
    for (const name of Object.keys(document.components.schemas))
      expect(page).toContain(`id="schema-${name}"`);
    expect(page).toContain('id="webhook-extraction_run.completed"');

    // Nothing runs and nothing loads from elsewhere; the one <style> is allowed by its hash.
    expect(page).not.toMatch(/<script|\ssrc=|<link/i);
    const style = /<style>([\s\S]*?)<\/style>/.exec(page)![1]!;
    const hash = createHash('sha256').update(style).digest('base64');
    const policy = response.headers.get('content-security-policy')!;
    expect(policy).toContain(`style-src 'sha256-${hash}'`);
    expect(policy).toContain("default-src 'none'");
  });

  it('escapes every string it renders', async () => {
    const document = structuredClone(await openApiDocument('http://extractor.test'));
    const attack = '<img src=x onerror=alert(1)>"\'&';
    document.info.description = `Intro ${attack}\n\n- item ${attack}\n\n\`\`\`\n${attack}\n\`\`\``;
    document.info.title = attack;
    document.servers[0]!.url = attack;
    document.tags[0]!.description = attack;
    const operation = document.paths['/api/buckets']!.get!;
    operation.summary = attack;
    operation.parameters[0]!.description = attack;
    operation.parameters[0]!.name = attack;
    document.components.schemas.ExtractionBucket = {
      type: 'object',
      description: attack,
      properties: {
        [attack]: { type: 'string', description: attack, enum: [attack], pattern: attack },
      },
    };
    document.components.responses['not-found']!.description = attack;

    const page = renderDocsPage(document);
    expect(page).not.toContain('<img');
    expect(page).not.toContain('onerror=alert(1)>');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;');
  });
});
