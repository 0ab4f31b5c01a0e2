import type { Logger } from '@register/service-kit';

/**
 * ADR 0015: while a service keeps timing out, the gateway answers 503 at once for it instead of making
 * every caller wait, and checks every few seconds whether it answers again. A timeout opens the breaker; a
 * probe of the service's `/health` (answered within a second) closes it. Refused connections need no
 * breaker: they fail fast by themselves.
 */
export class Breaker {
  private openSince: number | null = null;
  private probe: NodeJS.Timeout | null = null;

  constructor(
    private readonly name: string,
    private readonly target: string,
    private readonly logger: Logger,
    private readonly probeEveryMs = 2000,
  ) {}

  isOpen(): boolean {
    return this.openSince !== null;
  }

  /** A request to the service timed out: stop sending it traffic until a probe succeeds. */
  tripped(): void {
    if (this.openSince !== null) return;
    this.openSince = Date.now();
    this.logger.warn({ upstream: this.name }, 'upstream timed out; answering 503 at once until it responds again');
    this.probe = setInterval(() => void this.tryAgain(), this.probeEveryMs);
    this.probe.unref();
  }

  close(): void {
    if (this.probe) clearInterval(this.probe);
    this.probe = null;
    if (this.openSince !== null)
      this.logger.info({ upstream: this.name, openMs: Date.now() - this.openSince }, 'upstream answers again');
    this.openSince = null;
  }

  private async tryAgain(): Promise<void> {
    const ok = await fetch(new URL('/health', this.target), { signal: AbortSignal.timeout(1000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) this.close();
  }
}
