// The Host and Origin guards (./hosts.ts, ./origins.ts) applied to every HTTP request before yoga
// parses it; WebSocket upgrades pass the same guards in ../transports/upgrade-guards.ts.
import type { Plugin } from 'graphql-yoga';
import { type RequestGuard, refusalOf, refusalResponse } from './refusal';

/** Refuses an HTTP request a guard refuses, before it is parsed or run. */
export function useRequestGuards(guards: readonly RequestGuard[]): Plugin {
  return {
    onRequest({ request, endResponse }) {
      const refused = refusalOf(guards, request.headers);
      if (refused) endResponse(refusalResponse(refused, request));
    },
  };
}
