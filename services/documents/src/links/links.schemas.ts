import { z } from 'zod';
import { documents } from '@register/contracts';

/** The internal API's shapes come from the contract (`documents.internal`); these are their views here. */
export type LinkRequest = z.output<typeof documents.internal.linkRequest>;
export type LinkCheckRejection = z.output<typeof documents.internal.linkCheckResponse>['rejected'][number];
export type LinkedDocument = z.output<typeof documents.internal.linkResponse>['linked'][number];

export const ApplicationIdParams = z.object({ applicationId: z.string() });
export const OrgLogoParams = z.object({ documentId: z.string() });
