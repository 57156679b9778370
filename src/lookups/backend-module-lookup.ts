// One operation's backend modules of HTTPS edge routes, by route: one GET per distinct route, and
// what the operation's writes answered, so a read after a write in the operation costs no call.
import type { BackendModule, RouteKey } from '../upstream';
import { asError, KeyedLookup } from './keyed-lookup';
import type { Source } from './source';

export interface LoadedBackendModule extends BackendModule, RouteKey {}

const keyOf = (route: RouteKey): string => `${route.edgeId}/${route.routeId}`;

function routeOf(key: string): RouteKey {
  const [edgeId = '', routeId = ''] = key.split('/');
  return { edgeId, routeId };
}

export class BackendModuleLookup extends KeyedLookup<LoadedBackendModule, RouteKey> {
  /** No lists hold backend modules: a batch waits for none. */
  constructor(private readonly source: Source) {
    super(undefined);
  }

  protected keyOf(module: LoadedBackendModule): string {
    return keyOf(module);
  }

  protected keyString(route: RouteKey): string {
    return keyOf(route);
  }

  protected async fetch(keys: readonly string[], failed: Map<string, Error>): Promise<void> {
    await Promise.all(
      keys.map(async (key) => {
        const route = routeOf(key);
        try {
          const module = await this.source.getBackendModule(route);
          if (module) this.listed([{ ...route, ...module }]);
        } catch (error) {
          failed.set(key, asError(error));
        }
      }),
    );
  }
}
