import { describe, expect, it } from 'vitest';
import { answerAtEndOfTurn } from './answers-per-turn.js';

describe('answerAtEndOfTurn', () => {
  it('holds the answers ready in a turn until its check phase, then gives each unchanged', async () => {
    const order: string[] = [];
    const fetch = answerAtEndOfTurn((request: Request, env: { tag: string }) => {
      const path = new URL(request.url).pathname;
      order.push(`handled ${path}`);
      return Promise.resolve(new Response(`${env.tag} ${path}`, { status: 201 }));
    });
    setImmediate(() => order.push('check phase'));
    const answers = ['/a', '/b'].map((path) =>
      fetch(new Request(`http://extractor.test${path}`), { tag: 'env' }).then(async (response) => {
        order.push(`answered ${path}`);
        return [response.status, await response.text()];
      }),
    );
    expect(await Promise.all(answers)).toEqual([
      [201, 'env /a'],
      [201, 'env /b'],
    ]);
    expect(order).toEqual([
      'handled /a',
      'handled /b',
      'check phase',
      'answered /a',
      'answered /b',
    ]);
  });

  it('passes a failure on as it is', async () => {
    const fetch = answerAtEndOfTurn(() => Promise.reject(new Error('broken')));
    await expect(fetch(new Request('http://extractor.test/'), {})).rejects.toThrow('broken');
  });
});
