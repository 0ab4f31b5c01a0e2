import { z } from 'zod';

export const FeatureFlag = z
  .strictObject({ key: z.string().nullable(), description: z.string().nullable(), enabled: z.boolean() })
  .meta({ id: 'FeatureFlag' });
export const SetFeatureFlagRequest = z.strictObject({ enabled: z.boolean() }).meta({ id: 'SetFeatureFlagRequest' });
export const FlagParams = z.object({ key: z.string().min(1).max(100).meta({ example: 'herregistratie-aanvragen' }) });
