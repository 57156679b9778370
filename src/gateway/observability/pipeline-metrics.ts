// The GraphQL pipeline's metrics (request, parse, validate, context, execute, errors, HTTP duration),
// recorded by yoga's Prometheus plugin, with the operationName label bounded: every metric gets its
// labels from OperationNameLabels, and a name is admitted only once an operation of that name
// validated, so requests that fail to parse or validate never add a series. Parse time is measured
// here rather than by the plugin, so that a name's first parse is counted under its own name.
import {
  createCounter,
  createHistogram,
  type FillLabelsFnParams,
  usePrometheus,
} from '@graphql-yoga/plugin-prometheus';
import { getOperationAST, Kind } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { Histogram, type Registry } from 'prom-client';
import { ANONYMOUS_OPERATION, type OperationNameLabels } from './operation-names';

const METRICS_ENDPOINT = '/metrics';

type OperationLabel = 'operationName' | 'operationType';
const OPERATION_LABELS: OperationLabel[] = ['operationName', 'operationType'];

/** What yoga's HTTP histogram passes besides the operation. */
type HttpParams = FillLabelsFnParams & { request: Request; response: Response };

export function usePipelineMetrics(registry: Registry, names: OperationNameLabels): Plugin {
  const labelOf = (p: FillLabelsFnParams): Record<OperationLabel, string> => ({
    // No operation determined (no document, or a name that matches none): "unknown" for both.
    operationName:
      p.operationType === undefined && !p.operationName ? 'unknown' : names.label(p.operationName),
    operationType: p.operationType ?? 'unknown',
  });
  // The plugin hands every metric of an operation the same params object, and the metrics of one
  // phase one after the other (at the end of execution: the request counter, the duration and the
  // execute histograms): the label set last resolved serves them all. Kept in one slot rather than
  // a WeakMap per operation, whose entries would cost the garbage collector more than they save.
  let lastParams: FillLabelsFnParams | undefined;
  let lastLabels: Readonly<Record<OperationLabel, string>> = { operationName: '', operationType: '' };
  const labelsOf = (p: FillLabelsFnParams): Readonly<Record<OperationLabel, string>> => {
    if (p !== lastParams) {
      lastLabels = labelOf(p);
      lastParams = p;
    }
    return lastLabels;
  };
  const histogram = <Phase extends string>(name: string, help: string, phases: [Phase]) =>
    createHistogram<Phase, OperationLabel>({
      registry,
      histogram: { name, help, labelNames: OPERATION_LABELS },
      fillLabelsFn: labelsOf,
      phases,
    });
  const parseHistogram = new Histogram({
    name: 'graphql_envelop_phase_parse',
    help: 'Time spent on running GraphQL "parse" function',
    labelNames: OPERATION_LABELS,
    registers: [registry],
  });

  const prometheus = usePrometheus({
    registry,
    endpoint: METRICS_ENDPOINT,
    // Ids in the URL and error paths with list indices would make one series per request.
    labels: { url: false, path: false },
    metrics: {
      graphql_envelop_request: createCounter({
        registry,
        counter: {
          name: 'graphql_envelop_request',
          help: 'Counts the amount of GraphQL requests executed through Envelop',
          labelNames: OPERATION_LABELS,
        },
        fillLabelsFn: labelsOf,
        phases: ['execute'],
      }),
      graphql_envelop_request_duration: histogram(
        'graphql_envelop_request_duration',
        'Time spent on running the GraphQL operation from parse to execute',
        ['execute'],
      ),
      graphql_envelop_phase_validate: histogram(
        'graphql_envelop_phase_validate',
        'Time spent on running GraphQL "validate" function',
        ['validate'],
      ),
      graphql_envelop_phase_context: histogram(
        'graphql_envelop_phase_context',
        'Time spent on building the GraphQL context',
        ['context'],
      ),
      graphql_envelop_phase_execute: histogram(
        'graphql_envelop_phase_execute',
        'Time spent on running the GraphQL "execute" function',
        ['execute'],
      ),
      graphql_envelop_error_result: createCounter({
        registry,
        counter: {
          name: 'graphql_envelop_error_result',
          help: 'Counts the amount of errors reported from all phases',
          labelNames: [...OPERATION_LABELS, 'phase'],
        },
        fillLabelsFn: (p) => ({ ...labelsOf(p), phase: p.errorPhase ?? 'unknown' }),
        phases: ['parse', 'validate', 'context', 'execute'],
      }),
      graphql_yoga_http_duration: createHistogram({
        registry,
        histogram: {
          name: 'graphql_yoga_http_duration',
          help: 'Time spent on HTTP connection',
          labelNames: [...OPERATION_LABELS, 'method', 'statusCode'],
        },
        // A params object of its own (never seen before): its labels in one object, no copy.
        fillLabelsFn: (p: HttpParams) => {
          const { operationName, operationType } = labelOf(p);
          return { operationName, operationType, method: p.request.method, statusCode: p.response.status };
        },
        phases: ['request'],
      }),
      // Measured by nameAdmission below; not per resolver, no subscriptions, no deprecated fields,
      // a schema that never changes, no summary besides the histograms.
      graphql_envelop_phase_parse: false,
      graphql_envelop_request_time_summary: false,
      graphql_envelop_execute_resolver: false,
      graphql_envelop_phase_subscribe: false,
      graphql_envelop_deprecated_field: false,
      graphql_envelop_schema_change: false,
    },
  });

  return {
    onPluginInit({ addPlugin }) {
      // First, so that a name is admitted before the plugin labels the validate phase.
      addPlugin(nameAdmission(names, parseHistogram, labelsOf));
      addPlugin(prometheus);
    },
  };
}

/** Admits the name of each operation that validated, and observes its parse time under the label that earned. */
function nameAdmission(
  names: OperationNameLabels,
  parseHistogram: Histogram<OperationLabel>,
  labelsOf: (p: FillLabelsFnParams) => Readonly<Record<OperationLabel, string>>,
): Plugin {
  const parseSeconds = new WeakMap<object, number>();
  return {
    onParse({ context }) {
      const started = performance.now();
      return ({ result }) => {
        const seconds = (performance.now() - started) / 1000;
        // A document that does not parse has no name to admit: counted at once.
        if (result instanceof Error || result === null) parseHistogram.observe(labelsOf({}), seconds);
        else parseSeconds.set(context, seconds);
      };
    },
    onValidate({ context, params }) {
      const requested = (context as { params?: { operationName?: string | null } }).params?.operationName;
      return ({ valid }) => {
        const operation = getOperationAST(params.documentAST, requested);
        if (valid) names.admit(operation?.name?.value);
        const seconds = parseSeconds.get(context);
        if (seconds === undefined) return;
        parseSeconds.delete(context);
        // The labels the plugin gives the other phases: the requested name, else the first definition's.
        const first = params.documentAST.definitions[0];
        const operationType = first?.kind === Kind.OPERATION_DEFINITION ? first.operation : undefined;
        const firstName = first && 'name' in first ? first.name?.value : undefined;
        parseHistogram.observe(
          labelsOf({ operationName: requested || firstName || ANONYMOUS_OPERATION, operationType }),
          seconds,
        );
      };
    },
  };
}
