import { loadContracts } from '../../src/contract/contracts';
import type { ComponentName } from '../../src/contract/openapi-documents';
import type { ZgwResponse } from './zgw-client';

/**
 * The answer checked against the official document's response schema and headers for its
 * operation and status: what Open Zaak's own answer would have to satisfy.
 */
export async function expectContract(
  component: ComponentName,
  operationId: string,
  response: ZgwResponse,
  status: number,
): Promise<void> {
  expect({ operationId, status: response.status }).toEqual({ operationId, status });
  const contract = (await loadContracts())[component];
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  const errors = [
    ...(response.status === 204 ? [] : contract.validateResponse(operationId, response.status, response.body)),
    ...contract.validateResponseHeaders(operationId, response.status, headers),
  ];
  expect({ operationId, status: response.status, errors }).toEqual({
    operationId,
    status: response.status,
    errors: [],
  });
}
