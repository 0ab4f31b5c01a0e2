import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { startZgwSimulator, type ZgwSimulator, type ZgwSimulatorOptions } from '../../src';

export const SECRET = 'simulator-test-secret-of-some-length';
export const CLIENT_ID = 'register-applications';

export function startSim(options: Partial<ZgwSimulatorOptions> = {}): Promise<ZgwSimulator> {
  // Errors only: a failed webhook delivery a test provokes is not news.
  return startZgwSimulator({ secret: SECRET, clientId: CLIENT_ID, logger: pino({ level: 'error' }), ...options });
}

/** A ZGW JWT as the mirror makes one per call: HS256, iss = client_id, iat now. */
// jose ships ES modules only; this package is CommonJS.
export const jose = import('jose');

export async function zgwToken(
  claims: Record<string, unknown> = {},
  options: { secret?: string; iat?: number | null; alg?: string } = {},
): Promise<string> {
  const { SignJWT } = await jose;
  const jwt = new SignJWT({
    client_id: CLIENT_ID,
    user_id: 'self-service',
    user_representation: 'self-service',
    ...claims,
  })
    .setProtectedHeader({ alg: options.alg ?? 'HS256', typ: 'JWT' })
    .setIssuer(CLIENT_ID);
  if (options.iat !== null) jwt.setIssuedAt(options.iat ?? Math.floor(Date.now() / 1000));
  return jwt.sign(new TextEncoder().encode(options.secret ?? SECRET));
}

export interface ZgwResponse {
  status: number;
  headers: Headers;
  body: any;
}

export interface CallOptions {
  /** Extra headers; `null` leaves a default header out. */
  headers?: Record<string, string | null>;
  /** The whole Authorization header; `null` sends none. */
  authorization?: string | null;
  /** A raw body instead of JSON. */
  rawBody?: string;
}

/** A call with what the mirror sends: a fresh JWT, the CRS headers and JSON. */
export async function zgw(
  method: string,
  url: string,
  body?: unknown,
  options: CallOptions = {},
): Promise<ZgwResponse> {
  const hasBody = body !== undefined || options.rawBody !== undefined;
  const defaults: Record<string, string | null> = {
    Authorization: options.authorization === undefined ? `Bearer ${await zgwToken()}` : options.authorization,
    'Accept-Crs': 'EPSG:4326',
    ...(hasBody ? { 'Content-Crs': 'EPSG:4326', 'Content-Type': 'application/json' } : {}),
  };
  const merged = { ...defaults, ...options.headers };
  const headers = Object.fromEntries(
    Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== null),
  );
  const response = await fetch(url, {
    method,
    headers,
    ...(hasBody ? { body: options.rawBody ?? JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  return {
    status: response.status,
    headers: response.headers,
    body: type.includes('json') && text ? JSON.parse(text) : text,
  };
}

export function zaakBody(sim: ZgwSimulator, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    identificatie: `REG-${randomUUID().slice(0, 8)}`,
    bronorganisatie: sim.rsin,
    verantwoordelijkeOrganisatie: sim.rsin,
    zaaktype: sim.zaaktypeUrl,
    startdatum: '2025-03-01',
    registratiedatum: '2025-03-01',
    omschrijving: 'Aanvraag registratie',
    ...overrides,
  };
}

export async function createZaak(sim: ZgwSimulator, overrides: Record<string, unknown> = {}): Promise<any> {
  const response = await zgw('POST', `${sim.zakenUrl}/zaken`, zaakBody(sim, overrides));
  if (response.status !== 201) throw new Error(`zaak not created: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

export function statusBody(
  sim: ZgwSimulator,
  zaakUrl: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    zaak: zaakUrl,
    statustype: sim.catalogi.statustypeUrls.ingediend,
    datumStatusGezet: new Date(Date.now() - 1000).toISOString(),
    ...overrides,
  };
}

export function rolBody(
  sim: ZgwSimulator,
  zaakUrl: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    zaak: zaakUrl,
    roltype: sim.catalogi.roltypeInitiatorUrl,
    betrokkeneType: 'natuurlijk_persoon',
    roltoelichting: 'Aanvrager',
    betrokkeneIdentificatie: { inpBsn: '999990019' },
    ...overrides,
  };
}

export function documentBody(
  sim: ZgwSimulator,
  content: Buffer,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    bronorganisatie: sim.rsin,
    creatiedatum: '2025-03-01',
    titel: 'diploma.pdf',
    auteur: 'self-service',
    taal: 'nld',
    informatieobjecttype: sim.catalogi.informatieobjecttypeUrl,
    inhoud: content.toString('base64'),
    bestandsomvang: content.length,
    bestandsnaam: 'diploma.pdf',
    formaat: 'application/pdf',
    ...overrides,
  };
}
