// The path and query of an upstream request: the one place where URLs are built.
import type { UpstreamRequest } from './request';

/** What needs no escaping in a path segment (encodeURIComponent) nor in a form-encoded query value. */
const PLAIN = /^[A-Za-z0-9_.-]*$/;

/** Characters encodeURIComponent leaves that the form encoding (URLSearchParams) escapes, and spaces. */
const FORM_EXTRA = /[!'()~]|%20/g;
const formExtra = (c: string): string =>
  c === '%20' ? '+' : `%${c.charCodeAt(0).toString(16).toUpperCase()}`;

/**
 * One query key or value as URLSearchParams serialises it (application/x-www-form-urlencoded; a lone
 * surrogate becomes U+FFFD, as there).
 */
function formEncoded(s: string): string {
  if (PLAIN.test(s)) return s;
  try {
    return encodeURIComponent(s).replace(FORM_EXTRA, formExtra);
  } catch {
    // A lone surrogate, which encodeURIComponent refuses: URLSearchParams itself.
    return new URLSearchParams([['', s]]).toString().slice(1);
  }
}

/**
 * `basePath` (no trailing slash) plus each segment encoded on its own, plus the defined query values,
 * encoded exactly as URLSearchParams would (built by hand: one string, no params object per call).
 */
export function requestPath(basePath: string, request: UpstreamRequest): string {
  let path = basePath;
  for (const segment of request.segments)
    path += `/${PLAIN.test(segment) ? segment : encodeURIComponent(segment)}`;
  const query = request.query;
  if (query === undefined) return path;
  let separator = '?';
  for (const key in query) {
    const value = query[key];
    if (value === undefined) continue;
    path += `${separator}${formEncoded(key)}=${formEncoded(String(value))}`;
    separator = '&';
  }
  return path;
}

/** The path part of a base URL, without its trailing slashes. */
export const basePathOf = (baseUrl: string): string => new URL(baseUrl).pathname.replace(/\/+$/, '');
