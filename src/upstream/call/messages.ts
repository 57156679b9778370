// What clients read when an upstream call fails: the gateway's own words, never upstream text.
import { BAD_RESPONSE } from '../../resources/json';

export const MESSAGES = {
  UNAUTHENTICATED: 'The ngrok API refused the credential.',
  FORBIDDEN: 'The ngrok API refused this operation for the credential.',
  BAD_USER_INPUT: 'The ngrok API refused the request as invalid.',
  NOT_FOUND: 'The ngrok API has no such resource.',
  RATE_LIMITED: 'The ngrok API rate limit was reached; retry later.',
  UPSTREAM_UNAVAILABLE: 'The ngrok API is unavailable.',
  UPSTREAM_TIMEOUT: 'The ngrok API did not answer in time.',
  UPSTREAM_BAD_RESPONSE: BAD_RESPONSE,
  CIRCUIT_OPEN: 'The ngrok API is failing; the gateway pauses calls to it for a moment. Retry shortly.',
  QUEUE_FULL: 'Too many simultaneous ngrok API calls for this credential; retry shortly.',
  PAUSED:
    'The ngrok API rate-limited this credential; the gateway sends nothing for it until Retry-After has passed.',
  UNEXPECTED: 'Unexpected error while calling the ngrok API.',
  ENDED: 'The operation had answered before this call to the ngrok API was sent.',
} as const;
