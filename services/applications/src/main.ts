import { outboxRelay, runService } from '@register/service-kit';
import { migrations } from '../migrations';
import { adminCasesRoutes } from './admin-cases/admin-cases.routes';
import { assessmentRoutes } from './assessment/assessment.routes';
import { caseMirrorAdminRoutes } from './case-mirror/case-mirror-admin.routes';
import { caseMirrorJob, reconcilerJob } from './case-mirror/case-mirror.job';
import { changeRequestsRoutes } from './change-requests/change-requests.routes';
import { buildContext, configSchema } from './context';
import { documentLinkJob } from './document-linking/document-link.job';
import { draftsRoutes } from './drafts/drafts.routes';
import { letterContextRoutes } from './letter-context/letter-context.routes';
import { notificationsRoutes } from './notifications/notifications.routes';
import { registrationRoutes } from './registration/registration.routes';
import { submissionRoutes } from './submission/submission.routes';

export const start = runService(module, {
  name: 'applications',
  configSchema,
  migrations,
  buildContext,
  routes: [
    ...registrationRoutes,
    ...changeRequestsRoutes,
    ...draftsRoutes,
    ...submissionRoutes,
    ...assessmentRoutes,
    ...adminCasesRoutes,
    ...caseMirrorAdminRoutes,
    ...letterContextRoutes,
    ...notificationsRoutes,
  ],
  jobs: [outboxRelay, documentLinkJob, caseMirrorJob, reconcilerJob],
  // Room for a 256 KiB draft plus its envelope, so an oversized draft gets the contract's 400.
  jsonLimit: '1mb',
});
