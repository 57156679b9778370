// The error vocabulary of the stand-in: every error answer is built from one ApiError, so the
// body shape `{error_code?, status_code, msg, details:{operation_id}}` lives in one place.
// Messages are short paraphrases of the provider's catalogue; clients must key on codes only.
import { STATUS_CODES } from 'node:http';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string | undefined,
    message: string,
    /** Seconds, sent as a Retry-After header. */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

interface ErrorBody {
  error_code?: string;
  status_code: number;
  msg: string;
  details: { operation_id: string };
}

export function errorBody(error: ApiError, operationId: string): ErrorBody {
  return {
    ...(error.errorCode === undefined ? {} : { error_code: error.errorCode }),
    status_code: error.status,
    msg: error.message,
    details: { operation_id: operationId },
  };
}

interface CatalogEntry {
  status: number;
  template: string;
}

// Authentication failures are 403 upstream (observed), not 401.
const CATALOG: Readonly<Record<string, CatalogEntry>> = {
  ERR_NGROK_200: { status: 403, template: 'The API needs an Authorization header with an API key.' },
  ERR_NGROK_201: {
    status: 403,
    template: 'The Authorization header could not be parsed; use "Bearer <API key>". Header: {VALUE}',
  },
  ERR_NGROK_202: {
    status: 403,
    template: 'The credential does not look like an API key. Credential: {TOKEN}',
  },
  ERR_NGROK_203: { status: 403, template: 'The API key is well-formed but not valid. Key: {TOKEN}' },
  ERR_NGROK_204: { status: 403, template: 'This account is not allowed to use the API.' },
  ERR_NGROK_205: { status: 403, template: 'This account has been suspended.' },
  ERR_NGROK_210: {
    status: 400,
    template: 'The content type {CTYPE} is not supported; send application/json.',
  },
  ERR_NGROK_211: { status: 400, template: 'A {METHOD} request takes no body, but one was sent.' },
  ERR_NGROK_212: { status: 400, template: 'The request body could not be read completely.' },
  ERR_NGROK_213: { status: 400, template: 'The {CTYPE} request body could not be parsed.' },
  ERR_NGROK_214: {
    status: 400,
    template: 'The request parameter {NAME} is unknown. Supported fields: {SUPPORTED}.',
  },
  ERR_NGROK_215: { status: 400, template: 'The value given for the request parameter {NAME} is invalid.' },
  ERR_NGROK_216: { status: 400, template: 'The request has no Content-Type; send application/json.' },
  ERR_NGROK_217: {
    status: 400,
    template: 'The API version {VERSION} is not supported. Supported versions: 2.',
  },
  ERR_NGROK_218: {
    status: 400,
    template:
      'The request does not name an API version; send the Ngrok-Version header. Supported versions: 2.',
  },
  ERR_NGROK_225: { status: 429, template: 'Your account is limited to {MAX} simultaneous API requests.' },
  ERR_NGROK_226: {
    status: 429,
    template: 'Your account is rate limited to {MAX} API requests per {INTERVAL}.',
  },
  ERR_NGROK_227: {
    status: 400,
    template: 'The ID {VALUE} is invalid; expected an ID with the prefix {PREFIX}.',
  },
  ERR_NGROK_231: {
    status: 400,
    template: 'The query has unknown parameters: {UNKNOWN}. Supported parameters: {SUPPORTED}.',
  },
  ERR_NGROK_232: {
    status: 400,
    template: 'The query parameter {NAME} must have a single value but got {COUNT}: {VALUES}.',
  },
  ERR_NGROK_233: {
    status: 400,
    template: 'The page size limit must be between 1 and 100 but {VALUE} was given.',
  },
  ERR_NGROK_242: { status: 400, template: 'The ID {VALUE} is not a valid backend ID.' },
  ERR_NGROK_243: { status: 400, template: 'The ID {VALUE} is invalid; expected a prefix among {PREFIXES}.' },
  ERR_NGROK_244: {
    status: 400,
    template: 'The page size limit must be a number between 1 and 100 but {VALUE} was given.',
  },
  ERR_NGROK_248: {
    status: 400,
    template:
      'The endpoint create request passed an invalid type of {TYPE}; only cloud endpoints can be created through the API.',
  },
  ERR_NGROK_249: { status: 400, template: 'The endpoint URL {URL} is not valid: {REASON}.' },
  ERR_NGROK_250: { status: 400, template: 'Invalid CEL query: {DETAIL}.' },
  // The agent's refusals of remote commands (restart on Windows; update for the reasons of REASONS).
  ERR_NGROK_804: { status: 400, template: 'This ngrok agent does not support remote restarting: {REASON}.' },
  ERR_NGROK_806: { status: 400, template: 'This ngrok agent does not support remote updating: {REASON}.' },
  ERR_NGROK_1405: { status: 400, template: 'A required parameter is missing: {PARAM}.' },
  ERR_NGROK_7008: { status: 400, template: 'Edges are deprecated and no longer available.' },
  // The status is not documented; 400 like 7008 (the gateway keys on the code).
  ERR_NGROK_7196: {
    status: 400,
    template: 'Edges are read-only since they were shut down; use Cloud Endpoints and Traffic Policy.',
  },
  ERR_NGROK_9029: {
    status: 400,
    template:
      'The endpoint URL {URL} cannot take the internal binding: internal endpoints need a URL ending in ".internal".',
  },
  ERR_NGROK_18002: {
    status: 400,
    template: 'The provided cloud endpoint traffic policy configuration is invalid: {REASON}.',
  },
  ERR_NGROK_18004: {
    status: 400,
    template: 'The cloud endpoint update failed because no values were provided. Specify at least one value.',
  },
  ERR_NGROK_18009: { status: 400, template: 'This account already has an endpoint on the URL {URL}: {ID}.' },
};

function fill(template: string, params: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{([A-Z]+)\}/g, (_, name: string) => String(params[name] ?? '?'));
}

/** An error from the catalogue, with its placeholders filled. */
export function apiError(code: string, params: Readonly<Record<string, string | number>> = {}): ApiError {
  const entry = CATALOG[code];
  if (entry === undefined) throw new Error(`no catalogue entry for ${code}`);
  return new ApiError(entry.status, code, fill(entry.template, params));
}

/** ERR_NGROK_215 with the reason: on endpoint writes the msg is what tells a client what to fix. */
export function invalidValue(name: string, reason: string): ApiError {
  return new ApiError(
    400,
    'ERR_NGROK_215',
    `The value given for the request parameter ${name} is invalid: ${reason}.`,
  );
}

/**
 * A write to an agent endpoint. The provider documents no code for it (assumption): the code is
 * that of a create with a type other than cloud, the msg says why.
 */
export function agentEndpointReadOnly(id: string): ApiError {
  return new ApiError(
    400,
    'ERR_NGROK_248',
    `The endpoint ${id} is an agent endpoint, and agent endpoints are read-only: only cloud endpoints can be changed or deleted through the API.`,
  );
}

const NOT_FOUND = 'Resource not found';

/** The plain not-found answer: no error_code, as the real API sends it. */
export function notFound(): ApiError {
  return new ApiError(404, undefined, NOT_FOUND);
}

/** An injected error answer: the catalogue's message when the code is known, else the status text. */
export function injectedError(status: number, errorCode?: string, retryAfter?: number): ApiError {
  const template = errorCode === undefined ? undefined : CATALOG[errorCode]?.template;
  const msg =
    template === undefined
      ? status === 404
        ? NOT_FOUND
        : (STATUS_CODES[status] ?? 'Error')
      : fill(template, {});
  return new ApiError(status, errorCode, msg, retryAfter);
}

export function internalError(): ApiError {
  return new ApiError(500, undefined, 'Internal server error');
}
