// Serves GraphiQL's page (./graphiql-page.ts) as built once: in the coding the client prefers among
// those kept (brotli, gzip, identity), with a strong ETag and `Cache-Control: no-cache`, so the
// browser revalidates each load and a reload costs a 304 instead of megabytes. Yoga renders the page
// (its own checks decide when); this replaces that answer with the kept bytes.

import type { GraphiQLOptions, Plugin } from 'graphql-yoga';
import Negotiator from 'negotiator';
import { type GraphiQLPage, offlineGraphiQLPage, type PageEncoding } from './graphiql-page';

type Coding = PageEncoding | 'identity';

/** negotiator takes the server's preference among equal q-values; @types/negotiator omits that argument. */
const encodingOf = Negotiator.prototype.encoding as (
  this: Negotiator,
  available: string[],
  preferred: string[],
) => string | undefined;

/** The coding to send: the client's preference (q-values), brotli first among equals. */
function codingFor(request: Request, page: GraphiQLPage): Coding {
  const available = (['br', 'gzip', 'identity'] as const).filter((c) => page.bodies.has(c));
  const header = request.headers.get('accept-encoding') ?? undefined;
  const chosen = encodingOf.call(
    new Negotiator({ headers: { 'accept-encoding': header } }),
    [...available],
    ['br', 'gzip'],
  );
  // Nothing acceptable (identity;q=0 alone): identity all the same, as servers commonly do.
  return available.find((c) => c === chosen) ?? 'identity';
}

/** If-None-Match holds this ETag (weak comparison, as RFC 9110 asks for If-None-Match), or "*". */
function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

type FetchAPI = { Response: typeof Response };

/** The kept page in the client's coding, or a 304 (headers of its own: yoga's add nothing needed). */
function answer(page: GraphiQLPage, request: Request, fetchAPI: FetchAPI): Response {
  const coding = codingFor(request, page);
  const etag = page.etags.get(coding) ?? '';
  const validators = { etag, 'cache-control': 'no-cache', vary: 'Accept-Encoding' };
  if (matches(request.headers.get('if-none-match'), etag)) {
    return new fetchAPI.Response(null, { status: 304, headers: validators });
  }
  const body = page.bodies.get(coding) ?? new Uint8Array();
  return new fetchAPI.Response(body, {
    status: 200,
    headers: {
      ...validators,
      'content-type': 'text/html; charset=utf-8',
      'content-length': String(body.length),
      ...(coding === 'identity' ? {} : { 'content-encoding': coding }),
    },
  });
}

export interface GraphiQLServing {
  /** Yoga's `renderGraphiQL`. */
  render(options: GraphiQLOptions): Promise<string>;
  /** The page last rendered, with its encodings; undefined before the first render. */
  page(): Promise<GraphiQLPage> | undefined;
}

/** `compressed`: keep gzip and brotli encodings too (COMPRESSION). */
export function createGraphiQLServing(compressed: boolean): GraphiQLServing {
  const encodings: PageEncoding[] = compressed ? ['br', 'gzip'] : [];
  // The page this gateway renders: its options are fixed, so it is one page.
  let current: Promise<GraphiQLPage> | undefined;
  return {
    render(options) {
      current = offlineGraphiQLPage(options, encodings);
      return current.then((page) => page.html);
    },
    page: () => current,
  };
}

/** Replaces the page yoga rendered with the kept bytes of `serving`, or a 304. */
export function useGraphiQLCache(serving: GraphiQLServing): Plugin {
  return {
    onResponse({ request, response, setResponse, fetchAPI }) {
      const page = serving.page();
      if (
        page === undefined ||
        request.method !== 'GET' ||
        response.status !== 200 ||
        !response.headers.get('content-type')?.startsWith('text/html')
      )
        return;
      return page.then((p) => setResponse(answer(p, request, fetchAPI)));
    },
  };
}
