import { type Router } from 'express';
import { checkReadiness, type ReadinessCheck, caseSensitiveRouter } from '@register/service-kit';

/**
 * Probes: live as long as the process answers; ready while this gateway can serve: its database, its NATS
 * connection, not draining (ADR 0200). The services behind it are not its readiness.
 */
export function healthRouter(readiness: Record<string, ReadinessCheck>): Router {
  const router = caseSensitiveRouter();
  router.get('/health', (_req, res) => {
    res.json({ status: 'ok', service: 'gateway' });
  });
  router.get('/health/ready', async (_req, res) => {
    const checks = await checkReadiness(readiness);
    const ready = Object.values(checks).every(Boolean);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not-ready', checks });
  });
  return router;
}
