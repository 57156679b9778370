// Headers on refusals. A request refused before its body was read leaves the rest of that body on
// the connection, where it would stall the client's next request: such answers close the connection
// instead. A 401 says how to authenticate.
import type { Plugin } from 'graphql-yoga';

/** The realm of the Bearer challenge every 401 carries (RFC 6750). */
export const AUTH_CHALLENGE = 'Bearer realm="ngrok-graphql-gateway"';

/** Refusals that may come before the body is read: too large, CSRF (or scope), unsupported type. */
const UNREAD_BODY_STATUSES = new Set([403, 413, 415]);

export const useRefusalHeaders = (): Plugin => ({
  onResponse({ request, response }) {
    if (request.method === 'POST' && UNREAD_BODY_STATUSES.has(response.status)) {
      response.headers.set('connection', 'close');
    }
    if (response.status === 401) response.headers.set('www-authenticate', AUTH_CHALLENGE);
  },
});
