// The body of PUT …/backend, checked in the order a Go handler fails: content type and syntax,
// unknown fields, field types, the required backend_id, then its id shape and kind.
import { apiError } from '../api/errors';
import { parseJsonObject } from '../api/validate';
import { ID_PATTERN } from '../state/ids';
import { BACKEND_PREFIXES, isBackendPrefix } from '../state/resources';

const BODY_FIELDS = ['backend_id', 'enabled'];

interface ModuleInput {
  backendId: string;
  enabled: boolean;
}

/** The flat body of PUT …/backend: `{"backend_id": "bkd…", "enabled"?: boolean}`. */
export function parseModuleInput(contentType: string | undefined, body: Buffer): ModuleInput {
  const input = parseJsonObject(contentType, body);
  const unknown = Object.keys(input).find((key) => !BODY_FIELDS.includes(key));
  if (unknown !== undefined) {
    throw apiError('ERR_NGROK_214', { NAME: unknown, SUPPORTED: BODY_FIELDS.join(', ') });
  }
  const { backend_id: backendId, enabled } = input;
  if (backendId !== undefined && backendId !== null && typeof backendId !== 'string') {
    throw apiError('ERR_NGROK_215', { NAME: 'backend_id' });
  }
  if (enabled !== undefined && typeof enabled !== 'boolean')
    throw apiError('ERR_NGROK_215', { NAME: 'enabled' });
  if (backendId === undefined || backendId === null || backendId === '') {
    throw apiError('ERR_NGROK_1405', { PARAM: 'backend_id' });
  }
  const prefix = ID_PATTERN.exec(backendId)?.[1];
  if (prefix === undefined) throw apiError('ERR_NGROK_227', { VALUE: backendId, PREFIX: 'bkd' });
  if (!isBackendPrefix(prefix)) {
    throw apiError('ERR_NGROK_243', { VALUE: backendId, PREFIXES: BACKEND_PREFIXES.join(', ') });
  }
  return { backendId, enabled: enabled ?? true };
}
