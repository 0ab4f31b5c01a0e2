import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

export { OpenAPIRegistry };

export const ProblemDetails = z
  .looseObject({
    type: z.string().nullable(),
    title: z.string().nullable(),
    status: z.number().int().nullable(),
    detail: z.string().nullable(),
    instance: z.string().nullable(),
    correlationId: z.string().nullable(),
    errors: z.array(z.object({ field: z.string(), code: z.string(), detail: z.string() })).optional(),
  })
  .meta({ id: 'ProblemDetails' });

const problemContent = { 'application/problem+json': { schema: ProblemDetails } };

/** A problem response entry for `registerPath`. */
export function problem(description: string): { description: string; content: typeof problemContent } {
  return { description, content: problemContent };
}

export function json<T extends z.ZodType>(schema: T, description = 'OK') {
  return { description, content: { 'application/json': { schema } } };
}

export type PathConfig = RouteConfig;

/** The service's description, generated from the same zod schemas that validate its requests. */
export function generateOpenApi(registry: OpenAPIRegistry, title: string): object {
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title, version: 'v1' },
  });
}
