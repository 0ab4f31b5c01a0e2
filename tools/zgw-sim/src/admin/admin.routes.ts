import express, { type Router } from 'express';
import { z } from 'zod';
import type { FaultRegistry } from '../faults/faults';
import type { SimStateView } from '../state/state-view';

export interface AdminDeps {
  state: SimStateView;
  faults: FaultRegistry;
  refuseConnections: (forMs: number) => Promise<void>;
}

const refuseSchema = z.object({ forMs: z.number().int().min(1).max(600_000) }).strict();

/** The simulator's own API under /_sim: not part of any ZGW document, no JWT. */
export function adminRouter(deps: AdminDeps): Router {
  const router = express.Router();
  router.use(express.json({ limit: '100kb' }));

  router.get('/state', (_req, res) => {
    res.json({
      zaken: deps.state.zaken(),
      enkelvoudiginformatieobjecten: deps.state.documenten(),
      requests: deps.state.requests(),
      notifications: deps.state.notifications(),
      counters: deps.state.counters(),
      faults: deps.faults.list(),
    });
  });
  router.post('/reset', (_req, res) => {
    deps.state.reset();
    deps.faults.clear();
    res.status(204).end();
  });

  faultRoutes(router, deps);
  // A true ECONNREFUSED: the listener closes and reopens on the same port after forMs.
  router.post('/refuse-connections', (req, res) => {
    const parsed = refuseSchema.safeParse(req.body);
    if (!parsed.success) {
      res.status(400).json({ title: 'Invalid request', detail: z.prettifyError(parsed.error) });
      return;
    }
    // Answer first: once the listener closes, this connection goes too.
    res.status(202).json({ refusingForMs: parsed.data.forMs });
    res.on('finish', () => void deps.refuseConnections(parsed.data.forMs));
  });
  router.use((err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(400).json({ title: 'Invalid request', detail: err instanceof Error ? err.message : String(err) });
  });
  return router;
}

/** The faults: listed, added, removed, and the requests `hold` faults hold, with their release. */
function faultRoutes(router: Router, deps: AdminDeps): void {
  router.get('/faults', (_req, res) => {
    res.json(deps.faults.list());
  });
  router.post('/faults', (req, res) => {
    try {
      res.status(201).json(deps.faults.add(req.body as unknown));
    } catch (err) {
      res
        .status(400)
        .json({ title: 'Invalid fault', detail: err instanceof z.ZodError ? z.prettifyError(err) : String(err) });
    }
  });
  router.delete('/faults', (_req, res) => {
    deps.faults.clear();
    res.status(204).end();
  });
  router.delete('/faults/:id', (req, res) => {
    res.status(deps.faults.remove(req.params.id) ? 204 : 404).end();
  });
  // The requests `hold` faults are holding, and their release (each is then handled as usual).
  router.get('/held', (_req, res) => {
    res.json(deps.faults.held());
  });
  router.post('/faults/:id/release', (req, res) => {
    const released = deps.faults.release(req.params.id);
    if (released === 0 && !deps.faults.has(req.params.id)) {
      res.status(404).end();
      return;
    }
    res.json({ released });
  });
}
