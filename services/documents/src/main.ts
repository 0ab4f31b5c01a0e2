import http from 'node:http';
import { handleShutdown, listen, loadConfig, runMain } from '@register/service-kit';
import { documentsConfigSchema } from './config';
import { documentsLogger } from './logger';
import { startDocuments } from './service';

runMain(async () => {
  const config = loadConfig(documentsConfigSchema, process.env);
  const logger = documentsLogger(config.LOG_LEVEL);
  const service = await startDocuments(config, logger);
  const server = http.createServer(service.app);
  // Longer than the gateway agent's idle time-out, so a reused socket is never closed under it.
  server.keepAliveTimeout = 65_000;
  const port = await listen(server, config.PORT, config.HOST);
  logger.info({ port }, 'documents listening');
  handleShutdown({ server, closers: service.closers }, logger, config.SHUTDOWN_TIMEOUT_MS);
});
