import { loadConfig, runMain, serveApp, type StartService } from '@register/service-kit';
import { documentsConfigSchema } from './config';
import { documentsLogger } from './logger';
import { startDocuments } from './service';

export const start: StartService = async (env, options = {}) => {
  const config = loadConfig(documentsConfigSchema, env);
  const logger = documentsLogger(config.LOG_LEVEL);
  const service = await startDocuments(config, logger);
  return serveApp(service.app, { port: config.PORT, host: config.HOST, service: 'documents', logger, shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS, closers: service.closers, ...options });
};

if (require.main === module) runMain(() => start(process.env));
