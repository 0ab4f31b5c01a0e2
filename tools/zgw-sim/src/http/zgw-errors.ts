import { randomUUID } from 'node:crypto';

export interface InvalidParam {
  name: string;
  code: string;
  reason: string;
}

// The Django REST framework exception classes behind Open Zaak's error bodies: the class names the
// `type` URL, its default message (Open Zaak speaks Dutch) is the `title`.
const EXCEPTIONS = {
  ValidationError: { title: 'Ongeldige invoer.', code: 'invalid' },
  ParseError: { title: 'Ongeldig verzoek.', code: 'parse_error' },
  PermissionDenied: { title: 'U heeft geen toestemming om deze actie uit te voeren.', code: 'permission_denied' },
  NotFound: { title: 'Niet gevonden.', code: 'not_found' },
  MethodNotAllowed: { title: 'Methode niet toegestaan.', code: 'method_not_allowed' },
  NotAcceptable: { title: 'Kan niet voldoen aan de opgegeven Accept header.', code: 'not_acceptable' },
  PreconditionFailed: { title: 'Precondition failed', code: 'precondition_failed' },
  UnsupportedMediaType: { title: 'Ongeldig mediatype in aanvraag.', code: 'unsupported_media_type' },
  RequestDataTooBig: { title: 'De aanvraag is te groot.', code: 'request_data_too_big' },
  Throttled: { title: 'Verzoek is afgeremd.', code: 'throttled' },
  APIException: { title: 'Er is een serverfout opgetreden.', code: 'error' },
  ServiceUnavailable: {
    title: 'Service is tijdelijk niet beschikbaar, probeer het later opnieuw.',
    code: 'service_unavailable',
  },
  // Not Open Zaak's: an operation or filter of the documents that the simulator does not serve.
  NotImplemented: { title: 'Niet geïmplementeerd door de simulator.', code: 'not_implemented' },
} as const;

export type ExceptionClass = keyof typeof EXCEPTIONS;

const STATUS_EXCEPTION: Record<number, ExceptionClass> = {
  400: 'ValidationError',
  403: 'PermissionDenied',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  412: 'PreconditionFailed',
  413: 'RequestDataTooBig',
  415: 'UnsupportedMediaType',
  429: 'Throttled',
  501: 'NotImplemented',
  503: 'ServiceUnavailable',
};

/** An answer in Open Zaak's error format (`Fout`, or `ValidatieFout` with `invalidParams` for 400). */
export class ZgwError extends Error {
  constructor(
    readonly status: number,
    readonly exception: ExceptionClass,
    readonly detail: string,
    readonly code: string = EXCEPTIONS[exception].code,
    readonly invalidParams?: InvalidParam[],
  ) {
    super(detail);
  }

  static validation(invalidParams: InvalidParam[]): ZgwError {
    return new ZgwError(400, 'ValidationError', '', 'invalid', invalidParams);
  }

  static notFound(detail = 'Niet gevonden.'): ZgwError {
    return new ZgwError(404, 'NotFound', detail);
  }

  static forStatus(status: number, detail?: string): ZgwError {
    const exception = STATUS_EXCEPTION[status] ?? 'APIException';
    if (exception === 'ValidationError') {
      return ZgwError.validation([{ name: 'nonFieldErrors', code: 'invalid', reason: detail ?? 'Gesimuleerde fout.' }]);
    }
    return new ZgwError(status, exception, detail ?? EXCEPTIONS[exception].title);
  }
}

export function errorBody(error: ZgwError, origin: string): Record<string, unknown> {
  const body: Record<string, unknown> = {
    type: `${origin}/ref/fouten/${error.exception}/`,
    code: error.code,
    title: EXCEPTIONS[error.exception].title,
    status: error.status,
    detail: error.detail,
    instance: `urn:uuid:${randomUUID()}`,
  };
  // The documents answer every 400 with a ValidatieFout, so a parse error carries its invalidParams too.
  if (error.status === 400)
    body['invalidParams'] = error.invalidParams ?? [{ name: 'nonFieldErrors', code: error.code, reason: error.detail }];
  return body;
}
