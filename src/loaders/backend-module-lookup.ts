// The batch function behind the backend module loader, and the loader's key for a route.
import type { BackendModule, NgrokClient, RouteKey } from '../upstream';

export const routeKey = (route: RouteKey): string => `${route.edgeId}/${route.routeId}`;

export function parseRouteKey(key: string): RouteKey {
  const [edgeId = '', routeId = ''] = key.split('/');
  return { edgeId, routeId };
}

export interface LoadedBackendModule extends BackendModule, RouteKey {}

/** Batch function of the backend module loader: one GET per distinct route. */
export function loadBackendModules(
  client: NgrokClient,
  keys: readonly string[],
): Promise<(LoadedBackendModule | null | Error)[]> {
  return Promise.all(
    keys.map(async (key) => {
      const route = parseRouteKey(key);
      try {
        const module = await client.getBackendModule(route);
        return module && { ...route, ...module };
      } catch (error) {
        return error instanceof Error ? error : new Error(String(error));
      }
    }),
  );
}
