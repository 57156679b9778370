// graphql-sse's single connection mode (a PUT reserves a stream and returns a token, operations are
// POSTed with that token, a GET with it opens the one stream) is refused with an answer naming the
// mode; its distinct connections mode (the client's default, the GraphQL over SSE yoga serves) and
// graphql-ws work. Supporting it would mean a second pipeline: yoga's plugin for it runs operations
// without the request steps (persisted operations, the body limit, CSRF, the request log), and the
// reserved stream lives in one process, which a second replica behind a load balancer cannot find.
import type { Plugin } from 'graphql-yoga';
import { refusalResponse } from '../security/refusal';

/** The header (or `token` query parameter) that carries a reserved stream's token. */
const TOKEN_HEADER = 'x-graphql-event-stream-token';

const SINGLE_CONNECTION_REFUSED =
  "graphql-sse's single connection mode is not supported: use its distinct connections mode (singleConnection: false, the default) or graphql-ws on this endpoint.";

/** True for the requests only single connection mode sends: a reservation, or an operation or stream by token. */
function isSingleConnection(request: Request, url: URL): boolean {
  if (request.method === 'PUT') return true;
  if (request.headers.has(TOKEN_HEADER)) return true;
  return request.method === 'GET' && url.searchParams.has('token') && !url.searchParams.has('query');
}

/** Answers single connection mode's requests to `endpoint` with a 4xx that says so. */
export function useSingleConnectionRefusal(endpoint: string): Plugin {
  return {
    onRequest({ request, url, endResponse }) {
      if (url.pathname !== endpoint || !isSingleConnection(request, url)) return;
      const reserving = request.method === 'PUT';
      endResponse(
        refusalResponse(
          {
            status: reserving ? 405 : 400,
            code: 'SSE_SINGLE_CONNECTION_UNSUPPORTED',
            message: SINGLE_CONNECTION_REFUSED,
            // Refused before any body is read: the connection is not reused (see security/refusal-headers.ts).
            headers: reserving ? { allow: 'GET, POST', connection: 'close' } : { connection: 'close' },
          },
          request,
        ),
      );
    },
  };
}
