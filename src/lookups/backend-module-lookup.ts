// One operation's backend modules of HTTPS edge routes, by route: one GET per distinct route, and
// what the operation's writes answered, so a read after a write in the operation costs no call.
import DataLoader from 'dataloader';
import type { BackendModule, NgrokClient, RouteKey } from '../upstream';
import { asError } from './item-lookup';

export interface LoadedBackendModule extends BackendModule, RouteKey {}

const keyOf = (route: RouteKey): string => `${route.edgeId}/${route.routeId}`;

function routeOf(key: string): RouteKey {
  const [edgeId = '', routeId = ''] = key.split('/');
  return { edgeId, routeId };
}

export class BackendModuleLookup {
  /** Made on first use: few operations read a backend module. */
  private routeLoader: DataLoader<string, LoadedBackendModule | null> | undefined;

  constructor(private readonly client: NgrokClient) {}

  private get loader(): DataLoader<string, LoadedBackendModule | null> {
    this.routeLoader ??= new DataLoader((keys) => this.fetch(keys));
    return this.routeLoader;
  }

  /** The module of `route`, or null when the route has none. */
  load(route: RouteKey): Promise<LoadedBackendModule | null> {
    return this.loader.load(keyOf(route));
  }

  /** A write answered `module`: later reads of this operation see it without a call. */
  saved(module: LoadedBackendModule): void {
    this.loader.clear(keyOf(module)).prime(keyOf(module), module);
  }

  /** A write left `route` without a module: later reads of this operation see null without a call. */
  deleted(route: RouteKey): void {
    this.loader.clear(keyOf(route)).prime(keyOf(route), null);
  }

  /** A write to `route` is under way: later reads fetch it again. */
  changed(route: RouteKey): void {
    this.loader.clear(keyOf(route));
  }

  /** `remove` deletes the module of `route`: reads meanwhile fetch again, reads after it see null. */
  async deleting(route: RouteKey, remove: () => Promise<unknown>): Promise<void> {
    this.changed(route);
    await remove();
    this.deleted(route);
  }

  private fetch(keys: readonly string[]): Promise<(LoadedBackendModule | null | Error)[]> {
    return Promise.all(
      keys.map(async (key) => {
        const route = routeOf(key);
        try {
          const module = await this.client.getBackendModule(route);
          return module && { ...route, ...module };
        } catch (error) {
          return asError(error);
        }
      }),
    );
  }
}
