// `GET /` says where the gateway is: the GraphQL endpoint, GraphiQL outside production, the probes;
// a browser outside production is sent on to GraphiQL. Anything else off the known paths stays
// yoga's empty 404.
import type { Plugin } from 'graphql-yoga';

/** The text `GET /` answers (`graphiql`: GraphiQL is served, outside production). */
function rootText(endpoint: string, graphiql: boolean): string {
  return [
    `ngrok GraphQL gateway: GraphQL is at ${endpoint} (POST or GET; WebSocket: graphql-ws; subscriptions also over SSE).`,
    ...(graphiql ? [`GraphiQL: open ${endpoint} in a browser.`] : []),
    'Probes and metrics: /health, /readiness, /metrics.',
    '',
  ].join('\n');
}

/** Answers `GET /` and `HEAD /`: a browser (Accept: text/html) goes to GraphiQL when it is served. */
export function useRootPointer(endpoint: string, graphiql: boolean): Plugin {
  const text = rootText(endpoint, graphiql);
  return {
    onRequest({ request, url, endResponse }) {
      if (url.pathname !== '/' || (request.method !== 'GET' && request.method !== 'HEAD')) return;
      if (graphiql && request.headers.get('accept')?.includes('text/html')) {
        endResponse(new Response(null, { status: 302, headers: { location: endpoint } }));
        return;
      }
      endResponse(
        new Response(request.method === 'HEAD' ? null : text, {
          status: 200,
          headers: { 'content-type': 'text/plain; charset=utf-8' },
        }),
      );
    },
  };
}
