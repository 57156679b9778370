// The backend module of an HTTPS edge route: as the upstream sends it, read into the domain's shape,
// and its descriptor (PUT, GET and DELETE /edges/https/{edge_id}/routes/{id}/backend). It has no id
// of its own: it is read and written by its route.
import { BACKEND_KINDS } from '../id-kinds';
import { badResponse, object, optionalRef, type Ref } from '../json';
import type { Described } from '../resource';

export interface BackendModule {
  readonly enabled: boolean;
  /** Undefined when the upstream says the route has no backend. */
  readonly backend?: Ref;
}

export function parseBackendModule(v: unknown): BackendModule {
  const o = object(v, 'backend module');
  const enabled = o.enabled;
  if (typeof enabled !== 'boolean') throw badResponse('backend module.enabled is missing');
  return { enabled, backend: optionalRef(o.backend, 'backend module.backend', BACKEND_KINDS) };
}

const MODULE = '/{edge_id}/routes/{id}/backend';

export const BACKEND_MODULE = {
  typeName: 'BackendModule',
  noun: 'backend module',
  path: ['edges', 'https'],
  routes: {
    getBackend: { method: 'GET', template: MODULE },
    replaceBackend: { method: 'PUT', template: MODULE },
    deleteBackend: { method: 'DELETE', template: MODULE },
  },
} as const satisfies Described;
