// The planning row: how long the demand planner (src/gateway/limits/demand/) takes to predict the calls of
// each example operation, in this process, from a document parsed once (as yoga's parse cache hands
// it over). Planning runs before every operation, so it must stay far below an operation's own cost.
import { parse } from 'graphql';
import { EXAMPLE_OPERATIONS, exampleIdsFrom } from '../../gateway/graphiql';
import { planOperation } from '../../gateway/limits/demand/plan';
import { coerceVariables, VariableRefusal } from '../../gateway/limits/demand/variables';
import { demoData } from '../../sandbox';
import { schema } from '../../schema';

export interface PlanningRow {
  /** Example operations planned. */
  readonly operations: number;
  /** Microseconds per plan, the mean over every example. */
  readonly meanUs: number;
  /** The slowest example and its microseconds per plan. */
  readonly slowest: { readonly name: string; readonly us: number };
}

const WARM_UP = 500;

export function measurePlanning(iterations = 5_000): PlanningRow {
  const ids = exampleIdsFrom(demoData());
  if (!ids) throw new Error('the demo data has no example ids');
  const timings = EXAMPLE_OPERATIONS.map((example) => {
    const document = parse(example.document);
    const variables = coerceVariables(schema, document, example.name, example.variables(ids));
    if (variables instanceof VariableRefusal) throw new Error(`${example.name}: its variables do not fit`);
    const plan = () => planOperation({ schema, document, operationName: example.name, variables });
    for (let i = 0; i < WARM_UP; i += 1) plan();
    const started = performance.now();
    for (let i = 0; i < iterations; i += 1) plan();
    return { name: example.name, us: ((performance.now() - started) * 1000) / iterations };
  });
  const slowest = timings.reduce((a, b) => (b.us > a.us ? b : a));
  return {
    operations: timings.length,
    meanUs: timings.reduce((sum, t) => sum + t.us, 0) / timings.length,
    slowest,
  };
}
