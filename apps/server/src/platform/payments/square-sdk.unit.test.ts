import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The Square SDK costs a server process ~15-20 MB of RSS (19 MB of heap, ~60 MB imported alone) and
 * seconds of start-up (docs/performance.md), and most installations never take a Square payment:
 * it is imported the first time a company uses Square (square.ts `squareSdk`), never at start.
 * Checked in a fresh node process, as `npm start` runs the server (tsx, NODE_ENV=production):
 * Vitest's own module loader would hide what node loads. The SDK is CommonJS, so what node loaded
 * of it shows in `require.cache`.
 */
const server = path.resolve(import.meta.dirname, '../..');
const url = (file: string) => JSON.stringify(pathToFileURL(path.join(server, file)).href);

const PROBE = `
import { createRequire } from 'node:module';
const loaded = () =>
  Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes('/node_modules/square/'));
// What main.ts imports: the app with every route and resource, the jobs, the demo seed.
await import(${url('app.ts')});
await import(${url('jobs.registry.ts')});
await import(${url('platform/jobs.ts')});
await import(${url('seed/demo.ts')});
const atStart = loaded();

// A provider that only verifies a webhook (registry.ts makes one per company) needs no SDK either.
const { createSquareProvider, squareSdk } = await import(${url('platform/payments/square.ts')});
const provider = createSquareProvider({
  accessToken: 'token', locationId: 'L1', webhookSignatureKey: 'key',
  notificationUrl: 'https://tumble.test/integrations/square/webhook', environment: 'sandbox',
});
const notice = await provider.parseWebhook(Buffer.from(process.env.BODY), {
  'x-square-hmacsha256-signature': process.env.SIGNATURE,
});
const afterWebhook = loaded();

await squareSdk();
console.log(JSON.stringify({ atStart, afterWebhook, notice, afterUse: loaded() }));
`;

describe('the Square SDK', () => {
  it('is not loaded by starting the server or verifying a webhook, only when Square is used', () => {
    const body = JSON.stringify({
      event_id: 'ev1',
      type: 'payment.updated',
      data: { object: { payment: { order_id: 'order1' } } },
    });
    const signature = createHmac('sha256', 'key')
      .update('https://tumble.test/integrations/square/webhook')
      .update(body)
      .digest('base64');
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', PROBE], {
      cwd: server,
      encoding: 'utf8',
      env: { ...process.env, NODE_ENV: 'production', BODY: body, SIGNATURE: signature },
      timeout: 170_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '')).toEqual({
      atStart: false,
      afterWebhook: false,
      notice: { kind: 'checkout', eventId: 'ev1', sessionId: 'order1' },
      // The check itself sees the SDK once it is in (so `false` above means something).
      afterUse: true,
    });
  }, 180_000);
});
