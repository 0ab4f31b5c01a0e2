import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { adminRouter } from './admin/admin.routes';
import type { Contracts } from './contract/contracts';
import type { FaultRegistry } from './faults/faults';
import type { SimContext } from './http/operation';
import { errorBody, ZgwError } from './http/zgw-errors';
import type { JwtSettings } from './http/zgw-jwt';
import { zgwRequestHandler } from './http/zgw-router';
import type { SimStateView } from './state/state-view';

export interface AppDeps {
  contracts: Contracts;
  ctx: SimContext;
  registry: FaultRegistry;
  state: SimStateView;
  logger: Logger;
  jwt: JwtSettings;
  checkResponses: boolean;
  refuseConnections: (forMs: number) => Promise<void>;
}

// Documents arrive base64-encoded inside the JSON body: a 64 MiB document is 85.3 MiB of base64.
const BODY_LIMIT = '90mb';

export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Liveness for container health checks; not a ZGW path.
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.use(
    '/_sim',
    adminRouter({ state: deps.state, faults: deps.registry, refuseConnections: deps.refuseConnections }),
  );
  // The body is read before any fault: a client that gives up during a delay has still sent its request.
  app.use(express.raw({ type: () => true, limit: BODY_LIMIT }));
  app.use(faultInjection(deps));
  app.use(zgwRequestHandler(deps));
  // Only body reading fails here (too large, bad encoding): answered in Open Zaak's format.
  app.use((err: { status?: number; message?: string }, req: Request, res: Response, _next: NextFunction) => {
    const status = err.status ?? 400;
    deps.ctx.store.logRequest({ at: deps.ctx.now().toISOString(), method: req.method, path: req.path, status });
    res
      .status(status)
      .type('application/problem+json')
      .send(JSON.stringify(errorBody(ZgwError.forStatus(status, err.message), new URL(deps.ctx.baseUrl).origin)));
  });
  return app;
}

/**
 * Applies the first matching fault before the request is handled; `reset` is applied by the router after the work is
 * done.
 */
function faultInjection(deps: AppDeps) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const fault = deps.registry.take(req.method, req.path);
    if (!fault) return next();
    const log = (status: number | 'refused') =>
      deps.ctx.store.logRequest({
        at: deps.ctx.now().toISOString(),
        method: req.method,
        path: req.path,
        status,
        faultId: fault.id,
      });
    switch (fault.mode) {
      case 'refuse':
        log('refused');
        req.socket.resetAndDestroy();
        return;
      case 'status': {
        const status = fault.status ?? 500;
        log(status);
        res
          .status(status)
          .type('application/problem+json')
          .send(JSON.stringify(errorBody(ZgwError.forStatus(status), new URL(deps.ctx.baseUrl).origin)));
        return;
      }
      case 'delay':
        res.locals['fault'] = fault;
        await new Promise((resolve) => setTimeout(resolve, fault.delayMs ?? 0));
        return next();
      case 'hold': {
        res.locals['fault'] = fault;
        const held = deps.registry.hold(fault.id, req.method, req.path);
        res.on('close', () => {
          if (!res.writableFinished) held.clientGone();
        });
        await held.released;
        return next();
      }
      case 'reset':
        res.locals['resetFault'] = fault;
        return next();
    }
  };
}
