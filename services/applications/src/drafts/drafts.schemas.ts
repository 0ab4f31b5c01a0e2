import { z } from 'zod';
import { ApplicationType, int32 } from '../cases/application.schemas';

export const CreateApplicationRequest = z.object({ type: ApplicationType }).meta({ id: 'CreateApplicationRequest' });

/** The step rules and the 256 KiB limit (ADR 0005) are the sync rule's: it names each field it refuses. */
export const DraftSyncRequest = z
  .object({
    draft: z.unknown().meta({ description: 'Any JSON value; at most 256 KiB serialized.' }),
    stepIndex: int32.meta({ description: '0 ≤ stepIndex < stepCount' }),
    stepCount: int32.meta({ description: 'at least 1' }),
    documentIds: z.array(z.string().max(200)).max(200).nullish(),
  })
  .meta({ id: 'DraftSyncRequest' });
export type DraftSync = z.output<typeof DraftSyncRequest>;
