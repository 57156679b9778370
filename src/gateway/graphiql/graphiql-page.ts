// GraphiQL's page with every script, style and worker inlined (@graphql-yoga/render-graphiql),
// so it works with no internet; yoga's built-in page loads them from a public CDN. The ~9 MB
// bundle is imported on the first page request (never in production) and the page kept once built,
// with its gzip and brotli encodings (compressed once, off the event loop) and a strong ETag, so a
// reload costs a 304 and a first load ~2 MB (./graphiql-cache.ts serves them).
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { GraphiQLOptions } from 'graphql-yoga';

/** Content codings the page is kept in, besides identity. */
export type PageEncoding = 'br' | 'gzip';

export interface GraphiQLPage {
  readonly html: string;
  /** The page's bytes in each coding: identity, and the compressed ones when COMPRESSION is on. */
  readonly bodies: ReadonlyMap<PageEncoding | 'identity', Uint8Array<ArrayBuffer>>;
  /** A strong ETag per coding (each coding is a representation of its own). */
  readonly etags: ReadonlyMap<PageEncoding | 'identity', string>;
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Once per page: the highest levels that stay near a second for 9 MB (brotli's 11 takes ~15 s). */
async function encode(body: Buffer, encoding: PageEncoding): Promise<Uint8Array<ArrayBuffer>> {
  if (encoding === 'gzip') return gzipAsync(body, { level: 9 });
  return brotliAsync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 9,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
}

async function build(options: GraphiQLOptions, encodings: readonly PageEncoding[]): Promise<GraphiQLPage> {
  const { renderGraphiQL } = await import('@graphql-yoga/render-graphiql');
  const html = renderGraphiQL(options);
  const body = Buffer.from(html);
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 27);
  const encoded = await Promise.all(encodings.map(async (e) => [e, await encode(body, e)] as const));
  return {
    html,
    bodies: new Map([['identity', body], ...encoded]),
    etags: new Map([['identity', `"${hash}"`], ...encodings.map((e) => [e, `"${hash}-${e}"`] as const)]),
  };
}

let cached: { key: string; page: Promise<GraphiQLPage> } | undefined;

/** The page for these options, built (and compressed) once; the same options give the same page. */
export function offlineGraphiQLPage(
  options: GraphiQLOptions,
  encodings: readonly PageEncoding[],
): Promise<GraphiQLPage> {
  const key = JSON.stringify([options, encodings]);
  if (cached?.key !== key) {
    const page = build(options, encodings);
    // A failed import is not kept: the next request tries again.
    page.catch(() => {
      if (cached?.page === page) cached = undefined;
    });
    cached = { key, page };
  }
  return cached.page;
}
