// The fan-out row: what a fan-out document (scenarios/fan-out-documents.ts) costs the gateway before
// it runs, in this process: parsed, measured (gateway/limits/expanded-size.ts) and refused when it
// expands past MAX_EXPANDED_FIELDS; parsed, measured, validated and planned when it does not. Each
// document is parsed afresh (a distinct text each time, as an attacker sends them).
import { parse, validate } from 'graphql';
import { planOperation } from '../../gateway/limits/demand/plan';
import { coerceVariables, VariableRefusal } from '../../gateway/limits/demand/variables';
import { expandedSize } from '../../gateway/limits/expanded-size';
import { demoData, Rng } from '../../sandbox';
import { schema } from '../../schema';
import { fanOutDocuments } from '../scenarios/fan-out-documents';

/** The default of MAX_EXPANDED_FIELDS (config/sections/requests.ts). */
const BOUND = 1_000;

export interface FanOutRow {
  readonly documents: number;
  readonly refused: number;
  /** Microseconds a refused document costs: parse and measure. */
  readonly refusedUs: number;
  /** Microseconds an admitted document costs before it runs: parse, measure, validate, plan. */
  readonly admittedUs: number;
  /** The largest expanded size among the documents. */
  readonly largest: number;
}

export function measureFanOut(count = 400, rounds = 5): FanOutRow {
  const rng = new Rng(36);
  const nodeIds = (demoData().tunnels ?? []).slice(0, 2).map((t) => t.id);
  const documents = fanOutDocuments(
    () => rng.next(),
    { nodeIds, missingEndpointId: 'ep_2zzzzzzzzzzzzzzzzzzzzzzzzzz' },
    count,
  );
  const spent = { refused: 0, admitted: 0 };
  let refused = 0;
  let largest = 0;
  for (let round = 0; round < rounds; round += 1) {
    refused = 0;
    for (const { query, variables } of documents) {
      const started = performance.now();
      const document = parse(query, { noLocation: true });
      const size = expandedSize(schema, document);
      largest = Math.max(largest, size);
      if (size > BOUND) {
        refused += 1;
        spent.refused += performance.now() - started;
        continue;
      }
      if (validate(schema, document).length > 0) throw new Error(`a fan-out document is invalid: ${query}`);
      const coerced = coerceVariables(schema, document, undefined, variables);
      if (coerced instanceof VariableRefusal)
        throw new Error(`a fan-out document's variables do not fit: ${query}`);
      planOperation({ schema, document, variables: coerced });
      spent.admitted += performance.now() - started;
    }
  }
  const admitted = count - refused;
  return {
    documents: count,
    refused,
    refusedUs: refused > 0 ? (spent.refused * 1000) / (refused * rounds) : 0,
    admittedUs: admitted > 0 ? (spent.admitted * 1000) / (admitted * rounds) : 0,
    largest,
  };
}
