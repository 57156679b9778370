// The request body cap (MAX_BODY_BYTES), as yoga's own maxRequestBodySize answers it (413
// REQUEST_ENTITY_TOO_LARGE, 400 for a malformed Content-Length), at less cost: yoga pipes every body
// through a counting TransformStream and rebuilds the Request, even when Content-Length already
// bounds it. Node's HTTP parser never delivers more than a declared Content-Length, so only a body
// without one (chunked) is counted as it streams.
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

const tooLarge = () =>
  new GraphQLError('Request body too large', {
    extensions: { http: { status: 413 }, code: 'REQUEST_ENTITY_TOO_LARGE' },
  });

/** Only one non-negative integer is a valid Content-Length (a list of them is a smuggling attempt). */
const CONTENT_LENGTH = /^\d+$/;

/** A copy of `request` whose body errors once more than `limit` bytes have streamed through it. */
function counted(
  request: Request,
  limit: number,
  fetchAPI: { TransformStream: typeof TransformStream; Request: typeof Request },
) {
  const body = request.body;
  if (!body) return request;
  // yoga's own workaround: a native body stream needs the native TransformStream.
  const Transform = body instanceof ReadableStream ? globalThis.TransformStream : fetchAPI.TransformStream;
  let read = 0;
  const limited = body.pipeThrough(
    new Transform<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        read += chunk.byteLength;
        if (read > limit) controller.error(tooLarge());
        else controller.enqueue(chunk);
      },
    }),
  );
  return new fetchAPI.Request(request.url, {
    method: request.method,
    headers: request.headers,
    signal: request.signal,
    body: limited,
    duplex: 'half',
  } as RequestInit);
}

/** Bodies over `limit` bytes are refused; with maxRequestBodySize: false given to yoga. */
export function useBodyLimit(limit: number): Plugin {
  return {
    onRequestParse({ request, requestParser, setRequestParser, fetchAPI }) {
      const declared = request.headers.get('content-length');
      if (declared !== null) {
        if (!CONTENT_LENGTH.test(declared)) {
          throw new GraphQLError('Content-Length header is invalid.', {
            extensions: { http: { status: 400 }, code: 'BAD_REQUEST' },
          });
        }
        if (Number(declared) > limit) throw tooLarge();
        return;
      }
      if (requestParser === undefined || request.body === null) return;
      const parse = requestParser;
      setRequestParser((req) => parse(counted(req, limit, fetchAPI)));
    },
  };
}
