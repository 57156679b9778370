// The operations, once the caller is admitted: each route goes to its room's runner, which
// validates the input, acts on the account and returns the success outcome or throws an ApiError.
import { runAccountGraphOperation } from '../account-graph/operations';
import type { OperationRequest, Outcome } from '../api/operation-request';
import { isAccountGraphRoute, isEdgeRoute, isEndpointRoute, isTunnelRoute } from '../api/routes';
import { runBackendModuleOperation } from '../backend-modules/operations';
import { runEdgeOperation } from '../edges/operations';
import { runEndpointOperation } from '../endpoints/operations';
import { runTunnelOperation } from '../tunnels/operations';

export function runOperation(request: OperationRequest): Outcome {
  const { match } = request;
  if (isEndpointRoute(match)) return runEndpointOperation({ ...request, match });
  if (isAccountGraphRoute(match)) return runAccountGraphOperation({ ...request, match });
  if (isTunnelRoute(match)) return runTunnelOperation({ ...request, match });
  if (isEdgeRoute(match)) return runEdgeOperation({ ...request, match });
  return runBackendModuleOperation({ ...request, match });
}
