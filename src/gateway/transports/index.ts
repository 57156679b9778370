// The transports room's front: graphql-ws beside yoga's HTTP and SSE (websocket.ts, its upgrades
// judged in upgrade-guards.ts), the link a live subscriber holds to its client (subscriber-links.ts),
// graphql-sse's single connection mode refused (single-connection-refusal.ts), and the answers
// compressed (compression.ts); `GET /` pointing to the endpoint (root-pointer.ts).
export { withCompression } from './compression';
export { useRootPointer } from './root-pointer';
export { useSingleConnectionRefusal } from './single-connection-refusal';
export { type LinkCarrier, subscriberLinkOf } from './subscriber-links';
export { attachWebSocket } from './websocket';
