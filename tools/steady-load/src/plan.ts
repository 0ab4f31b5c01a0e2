/** One request of a load; the method defaults to GET, the path to the load's URL's. */
export interface PlannedRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
}

/** What the generator process is sent. */
export interface LoadPlan {
  url: string;
  rate: number;
  total: number;
  /** Requests sent first at the same rate and not measured (the warm-up, on the same connections). */
  warmup: number;
  requests: PlannedRequest[];
  trace: boolean;
}

/**
 * What it sends back: every answered request's latency (ms), the failures, and with `trace` each request's start and
 * latency.
 */
export interface LoadResult {
  latencies: number[];
  errors: number;
  /** From the first request out to the last answer in. */
  elapsedMs: number;
  epoch: number;
  trace: Array<[number, number]> | null;
}
