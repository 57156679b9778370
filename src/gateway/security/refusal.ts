// A request refused before yoga parses it (a foreign Host or Origin, a bad credential on a WebSocket
// upgrade): what the refusal is, and its body, a GraphQL error with a code like yoga's own refusals.
// HTTP requests (./request-guards.ts) and WebSocket upgrades (../transports/upgrade-guards.ts) are
// judged by the same guards and get the same answer.

const GRAPHQL_RESPONSE = 'application/graphql-response+json';

export interface Refusal {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  /** Extra response headers, e.g. Vary or WWW-Authenticate. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A judgement of a request from its headers: undefined lets it through. */
export type RequestGuard = (headers: Headers) => Refusal | undefined;

/** The first refusal of the guards, in their order. */
export function refusalOf(guards: readonly RequestGuard[], headers: Headers): Refusal | undefined {
  for (const guard of guards) {
    const refused = guard(headers);
    if (refused) return refused;
  }
  return undefined;
}

/** The answer's headers and body, in the media type the client accepts. */
export function refusalParts(refused: Refusal, accept: string | null) {
  const type = (accept ?? '').includes(GRAPHQL_RESPONSE) ? GRAPHQL_RESPONSE : 'application/json';
  return {
    headers: { 'content-type': `${type}; charset=utf-8`, ...refused.headers },
    body: JSON.stringify({ errors: [{ message: refused.message, extensions: { code: refused.code } }] }),
  };
}

/** The HTTP answer to a refusal, in the media type the request accepts. */
export function refusalResponse(refused: Refusal, request: Request): Response {
  const { headers, body } = refusalParts(refused, request.headers.get('accept'));
  return new Response(body, { status: refused.status, headers });
}
