import { createLogger, type Logger } from '@register/service-kit';

export function serviceLogger(level = 'info'): Logger {
  return createLogger('applications', level);
}
