// The deadline of a whole operation (OPERATION_TIMEOUT_MS): set here when it starts executing, on
// the operation's upstream scope (src/upstream/call/call-scope.ts), which every upstream call it makes reads.
import type { Plugin } from 'graphql-yoga';
import type { LimitsConfig } from '../../config';
import type { Context } from '../../context';

/** Gives each operation a deadline that the upstream layer reads (see src/upstream/call/call-scope.ts). */
export function useOperationDeadline(config: LimitsConfig): Plugin<Context> {
  return {
    onExecute({ args }) {
      args.contextValue.upstreamScope.deadline = performance.now() + config.operationTimeoutMs;
    },
  };
}
