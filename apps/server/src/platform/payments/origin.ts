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

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * The start-up warning when PUBLIC_URL is unset while the server listens beyond loopback: mail
 * (which has no request to take an origin from) would link to localhost. Null when all is well.
 */
export function publicUrlWarning(config: Pick<Config, 'PUBLIC_URL' | 'HOST' | 'publicUrl'>): string | null {
  if (config.PUBLIC_URL || LOOPBACK.has(config.HOST)) return null;
  return `PUBLIC_URL is not set while listening on ${config.HOST}: links in mail will point to ${config.publicUrl}. Set PUBLIC_URL to the address parents use.`;
}
