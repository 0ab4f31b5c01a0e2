import type { EventBus, EventSubscription } from './event-bus';
import { reference } from '@register/contracts';
import type { InternalClient } from './internal-client';
import type { Logger } from './logger';

export interface FeatureFlag {
  key: string;
  description: string | null;
  enabled: boolean;
}

export interface FlagReader {
  isEnabled(key: string): Promise<boolean>;
}

/**
 * Reads feature flags from the reference service, cached. A flag-changed event drops the cache at once;
 * a TTL refresh is the safety net for a missed event.
 */
export class FlagsClient implements FlagReader {
  private cache: { flags: Map<string, boolean>; fetchedAt: number } | null = null;
  private subscription: EventSubscription | null = null;
  /** Counts flag-changed events; a read begun before the latest one must not fill the cache. */
  private changes = 0;

  constructor(
    private readonly client: InternalClient,
    private readonly logger: Logger,
    private readonly ttlMs = 30_000,
  ) {}

  listen(events: Pick<EventBus, 'subscribe'>): void {
    this.subscription = events.subscribe(reference.events.flagChanged.subject, () => {
      this.cache = null;
      this.changes += 1;
    });
  }

  async isEnabled(key: string): Promise<boolean> {
    if (this.cache && Date.now() - this.cache.fetchedAt <= this.ttlMs) return this.cache.flags.get(key) ?? false;
    const changesBefore = this.changes;
    const { body } = await this.client.request<FeatureFlag[]>('GET', '/internal/flags');
    const flags = new Map(body.map((f) => [f.key, f.enabled]));
    if (changesBefore === this.changes) this.cache = { flags, fetchedAt: Date.now() };
    this.logger.debug({ flags: body.length }, 'feature flags refreshed');
    return flags.get(key) ?? false;
  }

  close(): void {
    this.subscription?.unsubscribe();
  }
}
