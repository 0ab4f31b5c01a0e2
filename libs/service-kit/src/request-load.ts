/**
 * How many requests a process has been answering lately: the count per second over the last second, in four
 * quarter-second buckets. Background work (the case mirror) reads it to yield to the requests (ADR 0273); the
 * kit's request scope counts every request but the health probes. O(1) per request, no allocation.
 */
export class RequestLoad {
  private static readonly BUCKETS = 4;
  private readonly counts = new Uint32Array(RequestLoad.BUCKETS);
  private bucket = 0;

  constructor(
    private readonly now: () => number = () => performance.now(),
    private readonly bucketMs = 250,
  ) {}

  /** One request, now. */
  count(): void {
    this.advance();
    this.counts[this.bucket % RequestLoad.BUCKETS]! += 1;
  }

  /** Requests per second over the last second (the quarter under way included). */
  perSecond(): number {
    this.advance();
    let sum = 0;
    for (const n of this.counts) sum += n;
    return (sum * 1000) / (this.bucketMs * RequestLoad.BUCKETS);
  }

  /** Empties the quarters that went by since the last count. */
  private advance(): void {
    const bucket = Math.floor(this.now() / this.bucketMs);
    const passed = Math.min(bucket - this.bucket, RequestLoad.BUCKETS);
    for (let i = 1; i <= passed; i++) this.counts[(this.bucket + i) % RequestLoad.BUCKETS] = 0;
    if (passed > 0) this.bucket = bucket;
  }
}
