/**
 * What the services need from an event transport. Two implementations: NATS JetStream (every deployment,
 * the tests, `npm start` where a nats-server exists) and the in-process bus of the single-process mode
 * (ADR 0021: a machine with nothing but Node).
 */
export interface EventMessage {
  subject: string;
  payload: string;
}

export interface EventSubscription {
  unsubscribe(): void;
}

/** Durable publish: resolves once the transport has taken responsibility for the event. */
export interface EventPublisher {
  /** `timeoutMs`: how long to wait for the transport's acknowledgement before rejecting (default 5 s). */
  publish(subject: string, payload: string, msgId: string, options?: { timeoutMs?: number }): Promise<void>;
  /**
   * True when publishes started one after another, without waiting for each, reach the stream in the order they
   * were started (one connection), so a relay may have many in flight at once.
   */
  readonly pipelined?: boolean;
}

export interface EventBus extends EventPublisher {
  readonly transport: 'nats' | 'in-process';
  /** Fire-and-forget notifications (core pub/sub): nothing is kept for a subscriber that is not listening. */
  subscribe(subject: string, onMessage: (message: EventMessage) => void): EventSubscription;
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

/** NATS subject matching: tokens split on `.`, `*` matches one token, a trailing `>` one or more. */
export function subjectMatches(filter: string, subject: string): boolean {
  const f = filter.split('.');
  const s = subject.split('.');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '>') return i === f.length - 1 && s.length > i;
    if (i >= s.length) return false;
    if (f[i] !== '*' && f[i] !== s[i]) return false;
  }
  return f.length === s.length;
}
