import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { publicTenant } from '../../platform/auth.ts';
import { AppError } from '../../platform/errors.ts';
import { embedOriginsOf } from './registration.service.ts';
import { EMBED_SCRIPT, withFrameAncestors } from './registration-embed.ts';

/**
 * The pages an embedded registration form shows inside the provider's website: the registration
 * pages of the SPA (`/registration/`, `/registration/waiver/`…, not the API's) and the parent's
 * sign-in, sign-up and password pages the form sends a visitor to first (they carry the authhash).
 */
const isEmbeddablePage = (url: string) =>
  /^\/registration(\/|\?|$)/.test(url) ||
  /^\/admin\/students\/(login|signup|forgotten-password|request-forgotten-password)\/?(\?|$)/.test(url);

/** The origins the company named by the page's authhash allows to frame it; none when unknown. */
async function allowedAncestors(app: FastifyInstance, request: FastifyRequest): Promise<string[]> {
  const authhash = new URL(request.url, 'http://x').searchParams.get('authhash');
  if (!authhash) return [];
  try {
    return await embedOriginsOf(app.deps.database.db, await publicTenant(app, request, authhash));
  } catch (error) {
    // Unknown (404) or suspended (410): framed by this site alone. The page itself is still sent:
    // the SPA says why (a suspended company's "Bookings … are closed"), not a JSON error.
    if (error instanceof AppError) return [];
    throw error;
  }
}

/**
 * The embed of registration forms: the snippet's script, and the frame policy of the registration
 * pages (and the parent sign-in pages they lead to). Those pages may be framed by the company's embed origins (CSP `frame-ancestors 'self'
 * <origins>`, from the authhash in the address; an unknown one gets `'self'` alone), and
 * X-Frame-Options is dropped there because it cannot name other origins and would contradict the
 * CSP. Every other page keeps the app's `frame-ancestors 'self'` and X-Frame-Options SAMEORIGIN.
 * Wrapped with fastify-plugin: the hook must see the SPA's pages, which are served outside it.
 */
export const registrationEmbed = fp(async (app: FastifyInstance) => {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!['GET', 'HEAD'].includes(request.method) || !isEmbeddablePage(request.url)) return payload;
    const csp = reply.getHeader('content-security-policy');
    if (typeof csp !== 'string') return payload;
    reply.header('content-security-policy', withFrameAncestors(csp, await allowedAncestors(app, request)));
    reply.removeHeader('x-frame-options');
    return payload;
  });

  app.get('/embed/registration.js', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      // Loaded by other websites' pages: helmet's same-origin resource policy would block it.
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('cache-control', 'public, max-age=300')
      .send(EMBED_SCRIPT),
  );
});
