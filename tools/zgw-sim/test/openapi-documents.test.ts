import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  COMPONENTS,
  loadDocuments,
  normaliseSchemas,
  openapiDirectory,
  type OpenApiDocument,
} from '../src/contract/openapi-documents';

describe('the official OpenAPI documents', () => {
  it('when the copies are hashed, then they match the SHA-256 that SOURCE.md records: copied unchanged', () => {
    const source = readFileSync(path.join(openapiDirectory(), 'SOURCE.md'), 'utf8');

    for (const name of COMPONENTS) {
      const file = `${name}-openapi.yaml`;
      const recorded = new RegExp(`\\| \`${file}\` \\|.*\\| \`([0-9a-f]{64})\` \\|`).exec(source)?.[1];
      const actual = createHash('sha256')
        .update(readFileSync(path.join(openapiDirectory(), file)))
        .digest('hex');

      expect({ file, sha256: actual }).toEqual({ file, sha256: recorded });
    }
  });

  it(
    'when the documents are loaded, then no reference points ' +
      'outside them and the Catalogi schemas they need are copied in',
    () => {
      const documents = loadDocuments();
      const external = JSON.stringify(documents).match(/"\$ref":"(?!#)[^"]*"/g);

      expect(external).toBeNull();
      expect(documents.zaken.components.schemas['Catalogi_ZaakType']).toBeDefined();
      expect(documents.documenten.components.schemas['Catalogi_InformatieObjectType']).toBeDefined();
    },
  );

  it('when a schema is nullable without a type, then null is one of its alternatives', () => {
    const doc = normaliseSchemas({
      paths: {},
      components: { schemas: { X: { nullable: true, allOf: [{ $ref: '#/components/schemas/Y' }] } } },
    } as OpenApiDocument);

    expect(doc.components.schemas['X']).toEqual({
      anyOf: [{ allOf: [{ $ref: '#/components/schemas/Y' }] }, { type: 'null' }],
    });
  });

  it('when a oneOf has a discriminator mapping, then the discriminator value selects the variant', () => {
    const doc = normaliseSchemas({
      paths: {},
      components: {
        schemas: {
          R: {
            oneOf: [{ $ref: '#/components/schemas/A' }],
            discriminator: { propertyName: 'kind', mapping: { a: '#/components/schemas/A' } },
          },
        },
      },
    } as OpenApiDocument);

    expect(doc.components.schemas['R']).toEqual({
      type: 'object',
      required: ['kind'],
      properties: { kind: { type: 'string', enum: ['a'] } },
      allOf: [
        { if: { properties: { kind: { const: 'a' } }, required: ['kind'] }, then: { $ref: '#/components/schemas/A' } },
      ],
    });
  });

  it('when a query parameter is typed integer but described as a URL reference, then it is read as a URL', () => {
    const doc = normaliseSchemas({
      paths: {
        '/statussen': {
          get: {
            parameters: [
              { in: 'query', name: 'zaak', schema: { type: 'integer' }, description: 'URL-referentie naar de ZAAK.' },
            ],
          },
        },
      },
      components: { schemas: {} },
    } as unknown as OpenApiDocument);

    expect(JSON.stringify(doc.paths['/statussen'])).toContain('"schema":{"type":"string","format":"uri"}');
  });
});
