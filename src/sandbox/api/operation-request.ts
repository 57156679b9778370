// What an operation receives once the caller is admitted, and what it answers with.
import type { AgentUpdateState } from '../account-graph/types';
import type { AccountStore } from '../state/store';
import type { RouteMatch } from './routes';

export interface OperationRequest {
  match: RouteMatch;
  method: string;
  query: URLSearchParams;
  contentType: string | undefined;
  body: Buffer;
  account: AccountStore;
  /** Base of every uri in bodies. */
  base: string;
  /** Edges shut down: backend module writes are refused with ERR_NGROK_7196. */
  edgesReadOnly: boolean;
  /** What an agent's update meets when its metadata names no state (SandboxOptions.agentUpdate). */
  agentUpdate: AgentUpdateState;
}

export type Outcome = { status: 200 | 201; json: unknown } | { status: 204 };
