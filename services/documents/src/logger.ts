import { createLogger, type Logger } from '@register/service-kit';

export function documentsLogger(level = 'info'): Logger {
  return createLogger('documents', level);
}
