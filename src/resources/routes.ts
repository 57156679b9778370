// A kind's routes as the upstream client sends them: the path segments of one call (each encoded
// on its own when the URL is built, upstream/call/request-path.ts) and the URL template a span names.
import { DESCRIBED, type RouteName } from './index';
import type { Described, Method, RouteSpec } from './resource';

/** What fills a route template's placeholders: `{id}`, `{edge_id}`. */
export type RouteParams = Readonly<Record<string, string>>;

/** A route read once: its method, its template, and its segments (a placeholder as `{ param }`). */
interface Route {
  readonly method: Method;
  readonly template: string;
  readonly parts: readonly (string | { readonly param: string })[];
}

function routeFrom(owner: Described, spec: RouteSpec): Route {
  const tail = spec.template
    .split('/')
    .filter((part) => part !== '')
    .map((part) => {
      const param = /^\{(\w+)\}$/.exec(part)?.[1];
      return param === undefined ? part : { param };
    });
  return {
    method: spec.method,
    template: `/${owner.path.join('/')}${spec.template}`,
    parts: [...owner.path, ...tail],
  };
}

const ROUTES: ReadonlyMap<string, Route> = new Map(
  DESCRIBED.flatMap((owner) =>
    Object.entries(owner.routes as Record<string, RouteSpec>).map(([name, spec]) => [
      name,
      routeFrom(owner, spec),
    ]),
  ),
);

function routeOf(name: string): Route {
  const route = ROUTES.get(name);
  if (route === undefined) throw new Error(`no route ${name}`);
  return route;
}

/**
 * Route `name` (a descriptor's `list`, `get` or a key of its `routes`) as a call: its name, method
 * and path segments, its placeholders filled from `params`.
 */
export function routeCall(
  name: string,
  params: RouteParams = {},
): { route: RouteName; method: Method; segments: string[] } {
  const route = routeOf(name);
  const segments = route.parts.map((part) => {
    if (typeof part === 'string') return part;
    const value = params[part.param];
    if (value === undefined) throw new Error(`route ${name} needs ${part.param}`);
    return value;
  });
  return { route: name as RouteName, method: route.method, segments };
}

/** The route's URL template (`/tunnels/{id}`): the span name and `url.template` of its calls. */
export const urlTemplate = (name: RouteName): string => routeOf(name).template;
