import { RequestOne } from '@nats-io/nats-core/internal';
import type { Msg } from '@nats-io/nats-core';

const SETTLED = Symbol('settled');
const PATCHED = Symbol('patched');

type Settling = RequestOne & { [SETTLED]?: true };

/**
 * nats.js (3.4) ends every answered request, and so every JetStream publish, with `cancel()`, which builds a
 * `RequestError('cancelled')` (a captured stack) to reject the request's promise although the answer already
 * resolved it: rejecting a settled promise does nothing, so the error is thrown away. On a read's processing record
 * it cost about 30 µs of the read's own CPU, and 15-25 µs of latency even with a shallow stack (ADR 0266).
 *
 * Here a request the client answered or failed is ended without that error: its timer cleared and its entry in the
 * connection's request table removed, as `cancel` does. A request ended before it was settled (the connection
 * closing, a caller's cancel) still rejects as the library has it. `RequestOne` is the library's own export
 * (`@nats-io/nats-core/internal`); the test `nats-settled-requests.test.ts` holds the behaviour against a real
 * server, so a version that changes the class fails there first.
 */
export function endSettledRequestsWithoutAnError(): void {
  const proto = RequestOne.prototype as Settling & { [PATCHED]?: true };
  if (proto[PATCHED]) return;
  const resolver = methodOf<(this: Settling, err: Error | null, msg: Msg) => void>(proto, 'resolver');
  const cancel = methodOf<(this: Settling, err?: Error) => void>(proto, 'cancel');
  proto.resolver = function (this: Settling, err, msg) {
    this[SETTLED] = true;
    resolver.call(this, err, msg);
  };
  proto.cancel = function (this: Settling, err?: Error) {
    if (!this[SETTLED]) return cancel.call(this, err);
    this.timer?.cancel();
    this.mux.cancel(this);
  };
  proto[PATCHED] = true;
}

/** Whether this process's requests end as `endSettledRequestsWithoutAnError` has it (its test asks). */
export function settledRequestsEndWithoutAnError(): boolean {
  return (RequestOne.prototype as { [PATCHED]?: true })[PATCHED] === true;
}

/** A method of the library's class as it defines it, called later on its instances. */
function methodOf<F>(proto: object, name: string): F {
  return Object.getOwnPropertyDescriptor(proto, name)?.value as F;
}
