// CSRF prevention: form and text/plain POSTs (which a page on any site can send without a preflight)
// need a header only a script can set. GET runs queries only (a mutation over GET is 405) and clients
// authenticate with a bearer header, not cookies, so a GET needs none: urql's and graphql-request's
// defaults work.
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/**
 * Headers that mark a request as sent by a script (a browser preflights them), so a form on another
 * site cannot run an operation. JSON POSTs and GET queries need none of them.
 */
const CSRF_HEADERS = ['x-graphql-yoga-csrf', 'graphql-require-preflight', 'apollo-require-preflight'];

/** yoga's CSRF prevention for POSTs only, its refusal coded CSRF_HEADER_REQUIRED. */
export function useCsrfPrevention(): Plugin {
  const onRequestParse = useCSRFPrevention({ requestHeaders: CSRF_HEADERS }).onRequestParse;
  return {
    onRequestParse(payload) {
      if (payload.request.method === 'GET') return;
      try {
        return onRequestParse?.(payload);
      } catch (error) {
        if (!(error instanceof GraphQLError)) throw error;
        throw new GraphQLError(error.message, {
          extensions: { ...error.extensions, code: 'CSRF_HEADER_REQUIRED' },
        });
      }
    },
  };
}
