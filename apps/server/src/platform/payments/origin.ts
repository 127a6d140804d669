import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';

/**
 * Where links that bring the browser back (the card page, its return URL, Stripe's and Square's
 * return URLs) point: PUBLIC_URL when set; otherwise the origin the parent is using, from the
 * request's Host (and X-Forwarded-Proto/Host only through the TRUST_PROXY_HOPS proxies Fastify
 * trusts, as config.ts says), so a parent who opened 127.0.0.1 is not sent to localhost and
 * signed out mid-payment. Mail has no request and always uses PUBLIC_URL (config.publicUrl).
 */
export function browserOrigin(config: Config, request: FastifyRequest): string {
  if (config.PUBLIC_URL) return config.publicUrl;
  const host = request.host;
  // A Host header we could not trust to be a host name falls back to the configured URL.
  if (!host || !/^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host))
    return config.publicUrl;
  return `${request.protocol}://${host}`;
}
