// Real API keys look like `2AbC…_5xYz…`; the stand-in accepts any readable key of that alphabet so
// that fixtures can use names like `sandbox-key`, and calls everything else "not a credential".
import { apiError } from '../api/errors';

const CREDENTIAL_PATTERN = /^[A-Za-z0-9_-]{1,256}$/;
const BEARER_PATTERN = /^Bearer +(.*)$/i;

export function isCredentialShaped(token: string): boolean {
  return CREDENTIAL_PATTERN.test(token);
}

/** The token of a `Bearer` header, or undefined; used to attribute counts before auth runs. */
export function bearerToken(header: string | undefined): string | undefined {
  const token = header === undefined ? undefined : BEARER_PATTERN.exec(header)?.[1]?.trim();
  return token === '' ? undefined : token;
}

/**
 * The API key of a request, checked the way the real API does (all failures are 403):
 * no header → 200, not `Bearer <token>` → 201, token not shaped like a key → 202, unknown key → 203.
 */
export function authenticate(header: string | undefined, isKnownKey: (key: string) => boolean): string {
  if (header === undefined || header.trim() === '') throw apiError('ERR_NGROK_200');
  const token = bearerToken(header);
  if (token === undefined) throw apiError('ERR_NGROK_201', { VALUE: header });
  if (!isCredentialShaped(token)) throw apiError('ERR_NGROK_202', { TOKEN: token });
  if (!isKnownKey(token)) throw apiError('ERR_NGROK_203', { TOKEN: token });
  return token;
}
