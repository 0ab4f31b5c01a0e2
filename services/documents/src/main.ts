import { loadConfig, runMain, serveApp } from '@register/service-kit';
import { documentsConfigSchema } from './config';
import { documentsLogger } from './logger';
import { startDocuments } from './service';

runMain(async () => {
  const config = loadConfig(documentsConfigSchema, process.env);
  const logger = documentsLogger(config.LOG_LEVEL);
  const service = await startDocuments(config, logger);
  await serveApp(service.app, { port: config.PORT, host: config.HOST, service: 'documents', logger, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS, closers: service.closers });
});
