// The Ngrok-Version header: the API refuses a request that names no version or another one, after
// auth and before the rate limit.
import { apiError } from '../api/errors';

const SUPPORTED_VERSION = '2';

/** Version 2 is the only one served; an empty header counts as missing, as in Go's Header.Get. */
export function checkVersion(raw: string | string[] | undefined): void {
  const header = Array.isArray(raw) ? raw.join(', ') : raw; // a repeated header is not version 2
  if (header === undefined || header === '') throw apiError('ERR_NGROK_218');
  if (header !== SUPPORTED_VERSION) throw apiError('ERR_NGROK_217', { VERSION: header });
}
