import { linkCheckResponse } from '@tumble/contracts/auth';
import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * Issue 19: a production build leaves response validation (and with it zod) out of the public
 * pages; development, the unit tests and builds made with VITE_VALIDATE_RESPONSES=true keep it.
 * VALIDATE_RESPONSES is read when the module loads, so each case loads the client afresh.
 */
async function clientBuiltWith(env: { DEV: boolean; MODE: string; VITE_VALIDATE_RESPONSES: string }) {
  vi.stubEnv('DEV', env.DEV);
  vi.stubEnv('MODE', env.MODE);
  vi.stubEnv('VITE_VALIDATE_RESPONSES', env.VITE_VALIDATE_RESPONSES);
  vi.resetModules();
  const { ApiClient, CommunicationError, VALIDATE_RESPONSES } = await import('./client');
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>().mockResolvedValue(
      new Response(JSON.stringify({ unexpected: true }), {
        headers: { 'Content-Type': 'application/json' },
      }),
    ),
  );
  const api = new ApiClient({ storage: () => undefined });
  const get = () => api.get('/api/v1/auth/activate', { schema: linkCheckResponse });
  return { get, CommunicationError, VALIDATE_RESPONSES };
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('response validation by build', () => {
  it('a production build passes a body through without checking it', async () => {
    const { get, VALIDATE_RESPONSES } = await clientBuiltWith({
      DEV: false,
      MODE: 'production',
      VITE_VALIDATE_RESPONSES: '',
    });
    expect(VALIDATE_RESPONSES).toBe(false);
    await expect(get()).resolves.toEqual({ unexpected: true });
  });

  it('a production build made with VITE_VALIDATE_RESPONSES=true rejects a body that does not match', async () => {
    const { get, CommunicationError } = await clientBuiltWith({
      DEV: false,
      MODE: 'production',
      VITE_VALIDATE_RESPONSES: 'true',
    });
    await expect(get()).rejects.toBeInstanceOf(CommunicationError);
  });

  it('development rejects a body that does not match', async () => {
    const { get, CommunicationError } = await clientBuiltWith({
      DEV: true,
      MODE: 'development',
      VITE_VALIDATE_RESPONSES: '',
    });
    await expect(get()).rejects.toBeInstanceOf(CommunicationError);
  });
});
