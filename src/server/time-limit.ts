/** A time limit on a promise whose work cannot be told to stop (a health check, a DNS lookup). */

/**
 * `work`, or a rejection once `ms` have passed without it settling (`message` says why, by
 * default that there was no answer). The work itself goes on; only its waiter stops.
 */
export async function within<T>(work: Promise<T>, ms: number, message?: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message ?? `no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
