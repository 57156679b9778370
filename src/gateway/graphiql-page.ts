// GraphiQL's page with every script, style and worker inlined (@graphql-yoga/render-graphiql),
// so it works with no internet; yoga's built-in page loads them from a public CDN. The ~9 MB
// bundle is imported on the first page request (never in production) and the page kept once built.
import type { GraphiQLOptions } from 'graphql-yoga';

let cached: { key: string; page: Promise<string> } | undefined;

/** yoga's `renderGraphiQL`: the same options give the same page, built once. */
export function renderOfflineGraphiQL(options: GraphiQLOptions): Promise<string> {
  const key = JSON.stringify(options);
  if (cached?.key !== key) {
    const page = import('@graphql-yoga/render-graphiql').then(({ renderGraphiQL }) =>
      renderGraphiQL(options),
    );
    // A failed import is not kept: the next request tries again.
    page.catch(() => {
      if (cached?.page === page) cached = undefined;
    });
    cached = { key, page };
  }
  return cached.page;
}
