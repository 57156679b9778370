// The upstream as the rest of the gateway sees it: one client per credential over a shared transport.
import { GatewayError } from '../errors';
import {
  type BackendModuleInput,
  deleteBackendModule,
  getBackendModule,
  type RouteKey,
  replaceBackendModule,
} from './edges';
import type { UpstreamTransport } from './http';
import { getTunnel, listTunnels, type TunnelPageRequest } from './tunnels';
import type { BackendModule, Tunnel, TunnelPage } from './types';

export type { BackendModuleInput, RouteKey } from './edges';
export { credentialKey, UpstreamTransport } from './http';
export type { TunnelPageRequest } from './tunnels';
export type { BackendModule, Ref, Tunnel, TunnelPage } from './types';

export class NgrokClient {
  /** `apiKey` null: a client for a request without credential; every call refuses. */
  constructor(
    private readonly transport: UpstreamTransport,
    private readonly key: string | null,
  ) {}

  private get apiKey(): string {
    if (this.key === null) {
      throw new GatewayError('UNAUTHENTICATED', 'Send "Authorization: Bearer <token>".', { httpStatus: 401 });
    }
    return this.key;
  }

  listTunnels(page: TunnelPageRequest): Promise<TunnelPage> {
    return listTunnels(this.transport, this.apiKey, page);
  }

  getTunnel(id: string): Promise<Tunnel | null> {
    return getTunnel(this.transport, this.apiKey, id);
  }

  getBackendModule(route: RouteKey): Promise<BackendModule | null> {
    return getBackendModule(this.transport, this.apiKey, route);
  }

  replaceBackendModule(route: RouteKey, input: BackendModuleInput): Promise<BackendModule> {
    return replaceBackendModule(this.transport, this.apiKey, route, input);
  }

  deleteBackendModule(route: RouteKey): Promise<void> {
    return deleteBackendModule(this.transport, this.apiKey, route);
  }
}
