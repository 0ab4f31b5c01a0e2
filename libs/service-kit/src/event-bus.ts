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
  publish(subject: string, payload: string, msgId: string): Promise<void>;
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
