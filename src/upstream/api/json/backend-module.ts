// The backend module of an edge route as the upstream sends it, read into the domain's shape.
import { badResponse, object, optionalRef, type Ref } from './fields';

export interface BackendModule {
  readonly enabled: boolean;
  /** Undefined when the upstream says the route has no backend. */
  readonly backend?: Ref;
}

export function parseBackendModule(v: unknown): BackendModule {
  const o = object(v, 'backend module');
  const enabled = o.enabled;
  if (typeof enabled !== 'boolean') throw badResponse('backend module.enabled is missing');
  return { enabled, backend: optionalRef(o.backend, 'backend module.backend', 'backend') };
}
