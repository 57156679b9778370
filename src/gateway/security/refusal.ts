// The answer to a request refused before yoga parses it: a GraphQL error with a code, in the media
// type the client accepts, like yoga's own refusals.
const GRAPHQL_RESPONSE = 'application/graphql-response+json';

export function refusal(
  status: number,
  code: string,
  message: string,
  request: Request,
  headers: Record<string, string> = {},
): Response {
  const type = (request.headers.get('accept') ?? '').includes(GRAPHQL_RESPONSE)
    ? GRAPHQL_RESPONSE
    : 'application/json';
  return new Response(JSON.stringify({ errors: [{ message, extensions: { code } }] }), {
    status,
    headers: { 'content-type': `${type}; charset=utf-8`, ...headers },
  });
}
