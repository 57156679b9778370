// What a request may ask and who may ask it: query limits, browser origins and hosts, tokens, persisted operations.

import { option, unset } from '../option';
import { boolean, type GatewayToken, hostNames, integer, origins, text, tokens } from '../parsers';

export const limits = {
  operationTimeoutMs: option({
    env: 'OPERATION_TIMEOUT_MS',
    help: 'deadline of a whole GraphQL operation, retries and queueing included, in milliseconds',
    default: 20_000,
    parse: integer(1, 600_000),
  }),
  maxDepth: option({
    env: 'MAX_DEPTH',
    help: 'maximum selection depth',
    default: 15,
    parse: integer(1, 1000),
  }),
  maxAliases: option({
    env: 'MAX_ALIASES',
    help: 'maximum aliases in one operation',
    default: 15,
    parse: integer(0, 10_000),
  }),
  maxTokens: option({
    env: 'MAX_TOKENS',
    help: 'maximum tokens in one document',
    default: 2_000,
    parse: integer(1, 1_000_000),
  }),
  maxDirectives: option({
    env: 'MAX_DIRECTIVES',
    help: 'maximum directives in one operation',
    default: 10,
    parse: integer(0, 10_000),
  }),
  maxExpandedFields: option({
    env: 'MAX_EXPANDED_FIELDS',
    help: 'fields one operation may expand to, every fragment spread through every possible type and every @skip/@include branch counted; above it the operation is refused before validation, planning or compilation',
    default: 1_000,
    parse: integer(1, 1_000_000),
  }),
  maxUpstreamCalls: option({
    env: 'MAX_UPSTREAM_CALLS_PER_OPERATION',
    help: 'upstream calls one operation may be predicted to make; above it the operation is refused before it runs (OPERATION_TOO_EXPENSIVE)',
    // A page of 20 with one join or reverse join is predicted at 23 at most (README: Cost and admission).
    default: 25,
    parse: integer(1, 10_000),
  }),
  maxResponseObjects: option({
    env: 'MAX_RESPONSE_OBJECTS',
    help: 'objects the answer of one operation may be predicted to hold, from its list sizes; above it the operation is refused before it runs',
    default: 2_000,
    parse: integer(1, 1_000_000),
  }),
  maxBodyBytes: option({
    env: 'MAX_BODY_BYTES',
    help: 'maximum request body size in bytes (larger: HTTP 413)',
    default: 102_400,
    parse: integer(1, 100_000_000),
  }),
  maxBatch: option({
    env: 'MAX_BATCH',
    help: 'operations in one batched request (a JSON array); 0 turns batching off',
    default: 5,
    parse: integer(0, 100),
  }),
  introspection: option({
    env: 'INTROSPECTION',
    help: 'answer schema introspection (__schema, __type)',
    default: true,
    parse: boolean,
  }),
};

export const access = {
  corsOrigins: unset<readonly string[]>({
    env: 'CORS_ORIGINS',
    help: 'comma-separated browser origins allowed by CORS, or *',
    defaultText: 'any origin in development (not where the gateway lends its key), none otherwise',
    parse: origins,
  }),
  allowedHosts: unset<readonly string[]>({
    env: 'ALLOWED_HOSTS',
    help: "comma-separated Host header names answered besides localhost, 127.0.0.1 and [::1] (a proxy's name), or *",
    defaultText: 'loopback names only when HOST is loopback; any otherwise',
    parse: hostNames,
  }),
  gatewayTokens: option<readonly GatewayToken[]>({
    env: 'GATEWAY_TOKENS',
    help: 'comma-separated bearer tokens clients must send when NGROK_API_KEY is set ("tok" or "tok:read")',
    default: [],
    defaultText: 'none',
    parse: tokens,
  }),
};

export const persisted = {
  file: unset<string>({
    env: 'PERSISTED_OPERATIONS_FILE',
    help: 'JSON manifest of persisted operations ({"id": "document"} or an Apollo manifest)',
    parse: text,
  }),
  only: option({
    env: 'PERSISTED_OPERATIONS_ONLY',
    help: 'refuse every operation that is not in the manifest',
    default: false,
    parse: boolean,
  }),
  apqMaxEntries: option({
    env: 'APQ_MAX_ENTRIES',
    help: 'automatic persisted queries remembered, least recently used dropped first (0: APQ off)',
    default: 1_000,
    parse: integer(0, 100_000),
  }),
};
