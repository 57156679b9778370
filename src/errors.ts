// The gateway's one error vocabulary. Nothing here knows GraphQL: src/schema/mutation-errors.ts shows the
// domain errors as data, and src/gateway/execution/graphql-errors.ts maps the rest to GraphQL errors.

export type ErrorCode =
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'BAD_USER_INPUT'
  | 'RATE_LIMITED'
  | 'OPERATION_TOO_EXPENSIVE'
  | 'UPSTREAM_TIMEOUT'
  | 'UPSTREAM_UNAVAILABLE'
  | 'UPSTREAM_BAD_RESPONSE'
  | 'LIVE_SNAPSHOT_TOO_LARGE'
  | 'INTERNAL_SERVER_ERROR';

/** What the upstream told us about a failed call, safe to show: no body text. */
export interface UpstreamInfo {
  readonly status?: number;
  readonly errorCode?: string;
  readonly operationId?: string;
}

/** An error a client may see as is: its message is ours, never upstream text. */
export class GatewayError extends Error {
  override name = 'GatewayError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: {
      upstream?: UpstreamInfo;
      retryAfter?: number;
      httpStatus?: number;
      /** 'UNKNOWN': a write failed after it was sent and may have been applied. */
      outcome?: 'UNKNOWN';
    } = {},
  ) {
    super(message);
  }
}

/** A failed upstream call, with the status the caller may want to branch on (404 above all). */
export class UpstreamError extends GatewayError {
  override name = 'UpstreamError';
  get status(): number | undefined {
    return this.details.upstream?.status;
  }
  get errorCode(): string | undefined {
    return this.details.upstream?.errorCode;
  }
  /**
   * The upstream's `msg` of a 400, cleaned (see answer-errors.ts). Kept off `details` so no log,
   * metric or error extension carries it; only the endpoint writes show it, as the contract allows.
   */
  refusal?: string;
}

export const badInput = (message: string): GatewayError => new GatewayError('BAD_USER_INPUT', message);

/** A request that needs the upstream brought no credential: HTTP 401. */
export const missingCredential = (): GatewayError =>
  new GatewayError('UNAUTHENTICATED', 'Send "Authorization: Bearer <token>".', { httpStatus: 401 });

/** An expected outcome of a mutation, shown as data: a stable code and a message for people. */
export abstract class MutationFailure extends Error {
  constructor(
    readonly code: 'NOT_FOUND' | 'INVALID_INPUT',
    message: string,
  ) {
    super(message);
  }
}

/** The thing to change does not exist. */
export class NotFoundError extends MutationFailure {
  override name = 'NotFoundError';
  constructor(
    message: string,
    readonly id?: string,
  ) {
    super('NOT_FOUND', message);
  }
}

/**
 * The upstream refused a write's input: `input` names the domain input's key at fault, when the
 * upstream's error code says which. The schema shows it as an InvalidInputError in its own terms.
 */
export class RefusedInputError<K extends string = string> extends Error {
  override name = 'RefusedInputError';
  constructor(
    readonly input: K | undefined,
    /** The upstream's cleaned reason, for the resources whose contract lets a client see it. */
    readonly reason?: string,
  ) {
    super('The ngrok API refused the input.');
  }
}

/** An input the upstream or the gateway refused. */
export class InvalidInputError extends MutationFailure {
  override name = 'InvalidInputError';
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super('INVALID_INPUT', message);
  }
}
