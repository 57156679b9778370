// The deadline of a whole operation (OPERATION_TIMEOUT_MS): set here, read by the upstream layer.
import type { Plugin } from 'graphql-yoga';
import type { LimitsConfig } from '../config';
import { withDeadline } from '../upstream/deadline';

/** Gives each operation a deadline that the upstream layer reads (see src/upstream/deadline.ts). */
export function useOperationDeadline(config: LimitsConfig): Plugin {
  return {
    onExecute({ executeFn, setExecuteFn }) {
      setExecuteFn((args) => withDeadline(config.operationTimeoutMs, () => executeFn(args)));
    },
  };
}
