import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { sendProblem } from '@register/problem';
import { requestSlot } from '../request-slot';

/**
 * ADR 0015: a request body must keep arriving at `minBytesPerSecond`, judged over each window of `windowMs`.
 * A window counts only while the gateway was ready to read: time the body waited on the gateway or the service
 * (before the proxy took it, or under backpressure) is never the client's.
 */
export interface BodyRate {
  minBytesPerSecond: number;
  windowMs: number;
}

const tooSlow = new WeakSet<IncomingMessage>();
const aborters = requestSlot<() => void>('abort when the body is too slow');

/** True once the request was ended for a body that came too slowly: its upstream failure is not the service's. */
export function isSlowBody(req: IncomingMessage): boolean {
  return tooSlow.has(req);
}

/** What to stop when the body turns out too slow (the proxy's request to the service). */
export function onSlowBody(req: IncomingMessage, abort: () => void): void {
  aborters.set(req, abort);
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** One 408 problem and the connection closed after it; what the client still sends is read and dropped. */
function endSlowRequest(req: Request, res: Response): void {
  tooSlow.add(req);
  aborters.get(req)?.();
  req.unpipe();
  req.resume();
  if (res.headersSent) {
    // Answered before the body came (a 401, a service's early refusal): the socket is no longer the response's.
    req.socket.destroy();
    return;
  }
  res.setHeader('Connection', 'close');
  sendProblem(req, res, 'request-timeout', 'The request body arrived too slowly; send it again.');
}

/** How many times per window the rate is judged: a client is let go at most one tick after its window ran out. */
const TICKS_PER_WINDOW = 20;

/**
 * Watches one request's body at the socket (no listener that would change how the body flows). The rate is judged
 * over a sliding window, a tick at a time: a burst followed by silence ends one window after the burst, and a tick in
 * which the gateway or the service held the body starts the window anew.
 */
function watch(req: Request, res: ServerResponse, rate: BodyRate): void {
  const socket = req.socket;
  const minBytes = (rate.minBytesPerSecond * rate.windowMs) / 1000;
  const tickMs = Math.max(1, Math.floor(rate.windowMs / TICKS_PER_WINDOW));
  let seen = [socket.bytesRead];
  let held = false;
  const onPause = () => (held = true);
  // Answered before the body was read (a 401, a GET's answer): nobody needs the rest, so it is read and dropped,
  // and what the client still owes is judged like any other body.
  const onAnswered = () => {
    if (req.complete) return;
    req.unpipe();
    req.resume();
  };
  // The socket outlives the request on a kept-alive connection: every listener put on it goes again, or it would
  // hold this request (and each one before it on that connection) until the connection closes.
  const stop = () => {
    clearInterval(timer);
    req.off('pause', onPause);
    req.off('end', stop);
    res.off('finish', onAnswered);
    socket.off('close', stop);
  };
  const timer = setInterval(() => {
    if (req.complete) return stop();
    const heldByUs = held || req.readableFlowing !== true || req.readableLength > 0;
    held = false;
    seen = heldByUs ? [socket.bytesRead] : [...seen.slice(-TICKS_PER_WINDOW), socket.bytesRead];
    if (seen.length <= TICKS_PER_WINDOW || seen[TICKS_PER_WINDOW]! - seen[0]! >= minBytes) return;
    stop();
    endSlowRequest(req, res as Response);
  }, tickMs);
  req.on('pause', onPause);
  res.once('finish', onAnswered);
  req.once('end', stop);
  socket.once('close', stop);
}

/** Express middleware: every request with a body is watched until its body has arrived or its answer is done. */
export function bodyRateGuard(rate: BodyRate) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (hasBody(req) && !req.complete) watch(req, res, rate);
    next();
  };
}
