import { OpenAPIBackend } from 'openapi-backend';
import { loadContracts } from '../src/contract/contracts';
import { COMPONENTS, loadDocuments } from '../src/contract/openapi-documents';

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];
const UUID = '0f5c6b8e-3d2a-4c1b-9e7f-123456789abc';

/** openapi-backend's own router on an unchanged instance: what the simulator's route table must agree with. */
async function libraryRouter(document: object, apiRoot: string) {
  const api = new OpenAPIBackend({ definition: document as never, apiRoot, quick: true, validate: false });
  await api.init();
  return (method: string, path: string) => {
    try {
      // Typed `never` when strict (it throws instead of answering undefined); what it returns is an operation.
      const operation = api.router.matchOperation({ method, path, headers: {} }, true) as
        { operationId?: string } | undefined;
      return operation?.operationId ?? 'not-found';
    } catch (err) {
      return String(err).includes('405') ? 'method-not-allowed' : 'not-found';
    }
  };
}

describe('the route table', () => {
  it(
    'when every path of every document is asked with every method, ' + 'then it matches what openapi-backend matches',
    async () => {
      const contracts = await loadContracts();
      const documents = loadDocuments();
      for (const component of COMPONENTS) {
        const contract = contracts[component];
        const library = await libraryRouter(documents[component], contract.basePath);
        const templates = Object.keys(documents[component].paths);
        const paths = [
          ...templates.flatMap((t) => [
            t.replace(/\{[^}]+\}/g, UUID),
            `${t.replace(/\{[^}]+\}/g, 'x')}/`,
            t.replace(/\{[^}]+\}/g, `${UUID}/extra`),
          ]),
          '/',
          '',
          '/onbekend',
        ].map((p) => `${contract.basePath}${p}`);
        paths.push('/elders/api/v1/zaken', `${contract.basePath}x/zaken`);
        const disagreements = [];
        let operations = 0;
        for (const path of paths) {
          for (const method of METHODS) {
            const ours = contract.match(method.toUpperCase(), path);
            const oursName = ours.kind === 'operation' ? ours.operation.operationId : ours.kind;
            const theirs = library(method.toUpperCase(), path);
            if (ours.kind === 'operation') operations += 1;
            if (oursName !== theirs) disagreements.push({ component, method, path, ours: oursName, theirs });
          }
        }
        expect(disagreements).toEqual([]);
        // Every template resolves at least once (its own method on its own path).
        expect(operations).toBeGreaterThanOrEqual(templates.length);
      }
    },
  );
});
