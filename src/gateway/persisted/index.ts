// The persisted-operations room's front: a manifest of known documents and automatic persisted
// queries (APQ), as yoga plugins and as the same rules for graphql-ws messages (persisted.ts).
export { /** @internal test seam */ createApqStore } from './apq';
export { PERSISTED_PARAM_NAMES, persistedOperations } from './persisted';
