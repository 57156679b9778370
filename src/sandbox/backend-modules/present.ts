// A backend module as the API writes it: `enabled` and a Ref to the backend, its uri derived from
// the backend's id under the public base.
import { resourceUri } from '../state/resources';
import type { BackendModule } from '../state/store';

export function presentModule(base: string, module: BackendModule): Record<string, unknown> {
  return {
    enabled: module.enabled,
    backend: {
      id: module.backendId,
      uri: resourceUri(base, module.backendId) ?? `${base}/backends/${module.backendId}`,
    },
  };
}
