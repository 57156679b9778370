// How each kind of setting is read from its text: every parser names the variable (or flag) in its error.

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export type Parser<T> = (raw: string, name: string) => T;

export type TokenScope = 'read' | 'write';

export interface GatewayToken {
  readonly token: string;
  readonly scopes: readonly TokenScope[];
}

const fail = (name: string, why: string): never => {
  throw new ConfigError(`${name}: ${why}`);
};

export const integer =
  (min: number, max: number): Parser<number> =>
  (raw, name) => {
    if (!/^\d+$/.test(raw.trim())) fail(name, `expected a whole number from ${min} to ${max}, got "${raw}"`);
    const n = Number(raw.trim());
    if (n < min || n > max) fail(name, `expected a whole number from ${min} to ${max}, got ${n}`);
    return n;
  };

export const oneOf =
  <T extends string>(values: readonly T[]): Parser<T> =>
  (raw, name) =>
    values.includes(raw.trim() as T)
      ? (raw.trim() as T)
      : fail(name, `expected one of ${values.join(', ')}, got "${raw}"`);

export const text: Parser<string> = (raw, name) =>
  raw.trim() === '' ? fail(name, 'must not be empty') : raw.trim();

export const httpUrl: Parser<string> = (raw, name) => {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return fail(name, `not a URL: "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(name, 'must be an http or https URL');
  if (url.search || url.hash || url.username || url.password) {
    fail(name, 'must be a base URL without credentials, query or fragment');
  }
  return url.href.replace(/\/+$/, '');
};

/** redis:// or rediss:// URL; it may hold a password, so an error never repeats the value. */
export const redisUrl: Parser<string> = (raw, name) => {
  let url: URL | undefined;
  try {
    url = new URL(raw.trim());
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'redis:' && url.protocol !== 'rediss:')) {
    fail(name, 'expected a redis:// or rediss:// URL (the value is not repeated: it may hold a password)');
  }
  return raw.trim();
};

export const keyPrefix: Parser<string> = (raw, name) =>
  /^[A-Za-z0-9:_.-]{1,64}$/.test(raw.trim())
    ? raw.trim()
    : fail(name, `expected 1 to 64 of A-Z a-z 0-9 : _ . -, got "${raw}"`);

export const boolean: Parser<boolean> = (raw, name) => {
  const value = raw.trim().toLowerCase();
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return fail(name, `expected true or false, got "${raw}"`);
};

const list = (raw: string): string[] =>
  raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');

/** Comma-separated origins such as https://app.example.com, or "*" for any. */
export const origins: Parser<readonly string[]> = (raw, name) =>
  list(raw).map((entry) => {
    if (entry === '*') return entry;
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {
      url = undefined;
    }
    if (
      !url ||
      (url.protocol !== 'http:' && url.protocol !== 'https:') ||
      url.origin !== entry.replace(/\/$/, '')
    ) {
      fail(
        name,
        `expected origins like https://app.example.com (scheme, host, optional port), got "${entry}"`,
      );
    }
    return url?.origin ?? entry;
  });

/** Comma-separated host names such as gateway.example.com (the Host header without its port), or "*". */
export const hostNames: Parser<readonly string[]> = (raw, name) =>
  list(raw)
    .map((entry) => entry.toLowerCase())
    .map((entry) =>
      entry === '*' || /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.?)+$|^\[[0-9a-f:.]+\]$/.test(entry)
        ? entry.replace(/\.$/, '')
        : fail(name, `expected host names like gateway.example.com (no scheme or port), got "${entry}"`),
    );

/** "token" has every scope; "token:read" or "token:read+write" narrow it. */
export const tokens: Parser<readonly GatewayToken[]> = (raw, name) =>
  list(raw).map((entry) => {
    const [token = '', scopeText] = entry.split(':');
    if (token.length < 16) fail(name, 'each token must have at least 16 characters');
    const scopes = scopeText === undefined ? ['read', 'write'] : scopeText.split('+');
    for (const s of scopes) if (s !== 'read' && s !== 'write') fail(name, `unknown scope "${s}"`);
    return { token, scopes: scopes as TokenScope[] };
  });

/** A number from 0 to 1 (a sampling ratio). */
export const fraction: Parser<number> = (raw, name) => {
  const n = /^\d*\.?\d+$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  return n >= 0 && n <= 1 ? n : fail(name, `expected a number from 0 to 1, got "${raw}"`);
};

/**
 * OTLP exporter headers, "name=value,name=value" with URL-encoded values (the OpenTelemetry format).
 * They usually hold the collector's credential, so an error never repeats a value.
 */
export const headerList: Parser<Readonly<Record<string, string>>> = (raw, name) => {
  const headers: Record<string, string> = {};
  for (const entry of list(raw)) {
    const eq = entry.indexOf('=');
    const key = entry.slice(0, eq).trim().toLowerCase();
    if (eq < 1 || !/^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(key)) {
      fail(name, 'expected name=value pairs separated by commas (values are not repeated here)');
    }
    let value: string;
    try {
      value = decodeURIComponent(entry.slice(eq + 1).trim());
    } catch {
      value = fail(name, `the value of "${key}" is not URL-encoded text`);
    }
    headers[key] = value;
  }
  return headers;
};
