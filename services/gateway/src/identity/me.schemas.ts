import { z } from 'zod';

export const Me = z.strictObject({ capabilities: z.array(z.string()).nullable() }).meta({ id: 'Me' });
export type Me = z.infer<typeof Me>;
