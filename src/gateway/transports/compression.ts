// Answers compressed with gzip or brotli when the client accepts it, by the expressjs `compression`
// middleware around the gateway's node:http handler. Yoga's own useContentEncoding does not fit: it
// compresses event streams (holding SSE events back), has no size threshold, runs brotli at quality
// 11 on every answer, ignores q-values and decompresses request bodies past the body limit.
// Streams are never compressed: an event or a multipart part must leave as soon as it is written.
// GraphiQL's page arrives already encoded (../graphiql/graphiql-cache.ts) and is passed through as it is.
// A request without Accept-Encoding cannot be answered compressed: it skips the middleware (its
// wrappers of write, end and writeHead, its filter and negotiation) and reaches the handler as it is;
// its answer, identity for every client, then carries no "Vary: Accept-Encoding".
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { constants } from 'node:zlib';
import compression from 'compression';
import type { ServerConfig } from '../../config';

type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/** Answers that must reach the client part by part as they are written. */
const STREAMED = /^\s*(?:text\/event-stream|multipart\/)/i;

/** The default filter (compressible media types only), without streams. */
function compressible(req: IncomingMessage, res: ServerResponse): boolean {
  const type = res.getHeader('content-type');
  if (typeof type === 'string' && STREAMED.test(type)) return false;
  return (compression.filter as unknown as (q: IncomingMessage, s: ServerResponse) => boolean)(req, res);
}

/** `handler` behind compression, or `handler` itself when COMPRESSION is off. */
export function withCompression(
  handler: RequestListener,
  config: Pick<ServerConfig, 'compression' | 'compressionMinBytes'>,
): RequestListener {
  if (!config.compression) return handler;
  const compress = compression({
    threshold: config.compressionMinBytes,
    filter: compressible,
    // Brotli's default quality (11) costs several times gzip's CPU on small JSON; 4 is the
    // middleware's own default, stated here because the CPU per answer depends on it. A 256 KB
    // window (not 4 MB) is cheaper to set up for each answer and as good for answers of this size.
    brotli: {
      params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_LGWIN]: 18 },
    },
  }) as unknown as Middleware;
  return (req, res) => {
    if (req.headers['accept-encoding'] === undefined) handler(req, res);
    else compress(req, res, () => handler(req, res));
  };
}
