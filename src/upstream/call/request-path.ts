// The path and query of an upstream request: the one place where URLs are built.
import type { UpstreamRequest } from './request';

/** `basePath` (no trailing slash) plus each segment encoded on its own, plus the defined query values. */
export function requestPath(basePath: string, request: UpstreamRequest): string {
  const path = request.segments.map((s) => `/${encodeURIComponent(s)}`).join('');
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(request.query ?? {})) if (v !== undefined) params.set(k, String(v));
  const qs = params.toString();
  return `${basePath}${path}${qs ? `?${qs}` : ''}`;
}

/** The path part of a base URL, without its trailing slashes. */
export const basePathOf = (baseUrl: string): string => new URL(baseUrl).pathname.replace(/\/+$/, '');
