// The public API's types for the portals: generated from openapi.json (the gateway's merged description) by
// openapi-typescript. Regenerate with `npm run api:update`; CI fails when they are not up to date.
export type { components, operations, paths } from './generated/api';

import type { components } from './generated/api';

/** A response or request body by its schema name, e.g. `Schema<'DashboardView'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];
