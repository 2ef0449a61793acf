/**
 * The page workers' line: turns shared between askers, work dropped when its asker leaves,
 * and work shared by askers of the same thing given up only when the last has left. The
 * work here is a promise the test settles, so the order is the test's alone.
 */
import { describe, expect, it } from 'vitest';
import { FairQueue, SharedWork } from './page-queue.js';

/** Work that ends when the test says so, noting when it started and whether it was told to stop. */
function heldWork(name: string, started: string[]) {
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const seen: { signal?: AbortSignal } = {};
  const work = async (signal: AbortSignal) => {
    started.push(name);
    seen.signal = signal;
    await finished;
    return name;
  };
  return { work, finish, seen };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('FairQueue', () => {
  it('gives each free slot to the asker served least recently, the earliest on a tie', async () => {
    const queue = new FairQueue(1);
    const started: string[] = [];
    const never = new AbortController().signal;
    const works = new Map<string, ReturnType<typeof heldWork>>();
    const ask = (asker: string, name: string) => {
      const held = heldWork(name, started);
      works.set(name, held);
      return queue.run(asker, never, held.work);
    };
    const answers = [
      ask('greedy', 'g1'),
      ask('greedy', 'g2'),
      ask('greedy', 'g3'),
      ask('greedy', 'g4'),
    ];
    answers.push(ask('other', 'o1'), ask('third', 't1'), ask('other', 'o2'));
    expect([queue.running, queue.waiting]).toEqual([1, 6]);
    for (const name of ['g1', 'o1', 't1', 'g2', 'o2', 'g3', 'g4']) {
      expect(started.at(-1)).toBe(name);
      works.get(name)!.finish();
      await settle();
    }
    expect(await Promise.all(answers)).toEqual(['g1', 'g2', 'g3', 'g4', 'o1', 't1', 'o2']);
    expect([queue.running, queue.waiting]).toEqual([0, 0]);
  });

  it('drops work whose asker left while it waited, without starting it', async () => {
    const queue = new FairQueue(1);
    const started: string[] = [];
    const first = heldWork('first', started);
    const running = queue.run('a', new AbortController().signal, first.work);
    const leaving = new AbortController();
    const dropped = queue.run('b', leaving.signal, heldWork('dropped', started).work);
    const kept = queue.run('b', new AbortController().signal, async () => 'kept');
    leaving.abort(new Error('gone'));
    await expect(dropped).rejects.toThrow('gone');
    expect(queue.waiting).toBe(1);
    first.finish();
    expect([await running, await kept]).toEqual(['first', 'kept']);
    expect(started).toEqual(['first']);
  });
});

describe('SharedWork', () => {
  it('starts work once for all its askers and gives it up only when the last has left', async () => {
    const shared = new SharedWork<string>();
    const started: string[] = [];
    const page = heldWork('page', started);
    const [one, two] = [new AbortController(), new AbortController()];
    const first = shared.join('page 1', one.signal, page.work);
    const second = shared.join('page 1', two.signal, page.work);
    expect(started).toEqual(['page']);

    one.abort(new Error('one left'));
    await expect(first).rejects.toThrow('one left');
    expect(page.seen.signal!.aborted).toBe(false);
    two.abort(new Error('two left'));
    await expect(second).rejects.toThrow('two left');
    expect(page.seen.signal!.aborted).toBe(true);

    // Whoever asks next starts it afresh rather than join its ending.
    const again = heldWork('again', started);
    const third = shared.join('page 1', new AbortController().signal, again.work);
    expect(started).toEqual(['page', 'again']);
    again.finish();
    expect(await third).toBe('again');
  });
});
