/** The part of autocannon 8's API the benchmarks use (the package ships no types). */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    /** Requests per second over all connections, instead of as many as answered. */
    overallRate?: number;
    method?: string;
    headers?: Record<string, string>;
  }

  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
  }

  interface Result {
    requests: Histogram & { total: number };
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    duration: number;
  }

  /** The running instance emits `response` (client, statusCode, bytes, milliseconds) per answer. */
  function autocannon(
    options: Options,
    done: (error: Error | null, result: Result) => void,
  ): EventEmitter;
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
