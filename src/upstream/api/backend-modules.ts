// The backend module of an HTTPS edge route (resources/kinds/backend-module.ts): its GET, PUT and DELETE.
import { NotFoundError, RefusedInputError, UpstreamError } from '../../errors';
import type { BackendModule } from '../../resources';
import { parseBackendModule } from '../../resources/kinds/backend-module';
import { routeCall } from '../../resources/routes';
import type { UpstreamRequest } from '../call/request';
import type { UpstreamKey } from '../call/upstream-key';
import type { UpstreamTransport } from '../transport';
import { readOrNull, writing } from './calls';

export interface RouteKey {
  readonly edgeId: string;
  readonly routeId: string;
}

export interface BackendModuleInput {
  readonly backendId: string;
  /** Omitted: the upstream's default (true) applies. */
  readonly enabled?: boolean;
}

const paramsOf = (route: RouteKey) => ({ edge_id: route.edgeId, id: route.routeId });

export const getBackendRequest = (route: RouteKey): UpstreamRequest =>
  routeCall('getBackend', paramsOf(route));

// Upstream validation codes that name the part of the domain input at fault.
const INPUT_BY_ERROR_CODE: Readonly<Record<string, keyof BackendModuleInput>> = {
  ERR_NGROK_227: 'backendId',
  ERR_NGROK_242: 'backendId',
  ERR_NGROK_243: 'backendId',
  ERR_NGROK_1405: 'backendId',
};

/**
 * Edges were shut down on 2025-12-31: an account without them gets ERR_NGROK_7008 on any edge call,
 * and a write may be refused with ERR_NGROK_7196 (edges are read-only). Both are FORBIDDEN, whatever
 * the status they come with, and neither is worth a retry.
 */
const RETIRED_EDGES: Readonly<Record<string, string>> = {
  ERR_NGROK_7008: 'HTTPS edges are deprecated and not available for this account.',
  ERR_NGROK_7196:
    'This HTTPS edge is read-only: the ngrok API shut Edges down on 2025-12-31 and refuses changes to them. Use Cloud Endpoints and Traffic Policy instead.',
};

function edgesUnavailable(error: unknown): unknown {
  const message = error instanceof UpstreamError && error.errorCode && RETIRED_EDGES[error.errorCode];
  return message ? new UpstreamError('FORBIDDEN', message, error.details) : error;
}

/** Turns the upstream's expected refusals of a write into domain errors; the rest stays as is. */
function domainError(error: unknown, route: RouteKey): unknown {
  if (!(error instanceof UpstreamError) || (error.errorCode && RETIRED_EDGES[error.errorCode]))
    return edgesUnavailable(error);
  if (error.status === 404) {
    return new NotFoundError(
      `No HTTPS edge route ${route.routeId} on edge ${route.edgeId}, or it has no backend module.`,
      route.routeId,
    );
  }
  if (error.status === 400 && error.code === 'BAD_USER_INPUT') {
    return new RefusedInputError<keyof BackendModuleInput>(
      error.errorCode ? INPUT_BY_ERROR_CODE[error.errorCode] : undefined,
    );
  }
  return error;
}

/** The module, or null when the route does not exist or has none (a 404, or a 200 without backend). */
export async function getBackendModule(
  transport: UpstreamTransport,
  key: UpstreamKey,
  route: RouteKey,
): Promise<BackendModule | null> {
  try {
    const module = await readOrNull(transport, key, getBackendRequest(route), parseBackendModule);
    return module?.backend ? module : null;
  } catch (error) {
    throw edgesUnavailable(error);
  }
}

export const replaceBackendModule = writing(
  (route: RouteKey, input: BackendModuleInput): UpstreamRequest => ({
    ...routeCall('replaceBackend', paramsOf(route)),
    body: { backend_id: input.backendId, ...(input.enabled === undefined ? {} : { enabled: input.enabled }) },
  }),
  parseBackendModule,
  domainError,
);

export const deleteBackendModule = writing(
  (route: RouteKey): UpstreamRequest => routeCall('deleteBackend', paramsOf(route)),
  () => undefined,
  domainError,
);
