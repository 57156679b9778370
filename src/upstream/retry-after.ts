// The upstream's Retry-After header, read as whole seconds.

/** Retry-After in whole seconds, from either its delta-seconds or its HTTP-date form. */
export function retryAfterSeconds(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  if (!/^[A-Za-z]{3}, .+ GMT$/.test(value.trim())) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}
