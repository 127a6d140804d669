import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** An external PostgreSQL (15+). Without it the server starts an embedded one under DATA_DIR. */
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default(path.join(repoRoot, '.data')),
  /** Where links in mails point to. Defaults to http://localhost:PORT. */
  PUBLIC_URL: z.string().url().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Tumble <no-reply@tumble.local>'),
  /** Mails one worker sends a minute over SMTP_URL (0: no limit); mass mail waits its turn. */
  SMTP_MAX_PER_MINUTE: z.coerce.number().int().min(0).default(600),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Built SPA; served for every non-API path when present. */
  WEB_DIST: z.string().default(path.join(repoRoot, 'apps/web/dist')),
  /** Load the demo company on an empty database (on by default; tests turn it off). */
  SEED_DEMO: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /**
   * How many reverse proxies sit in front of the server. 0 (default): the client's address is the
   * socket's; X-Forwarded-For is ignored so nobody can dodge the per-address limits by forging it.
   */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /**
   * The `test` payment provider confirms bookings on a local card page without moving money: on for
   * the demo and tests, and to be turned off (false) on a live installation.
   */
  TEST_PAYMENTS: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /** Stripe (Embedded Checkout). STRIPE_API_BASE points the SDK elsewhere (tests use a local stub). */
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_API_BASE: z.string().url().optional(),
  /** Square (payment links). SQUARE_BASE_URL points the SDK elsewhere (tests use a local stub). */
  SQUARE_ACCESS_TOKEN: z.string().optional(),
  SQUARE_LOCATION_ID: z.string().optional(),
  SQUARE_WEBHOOK_SIGNATURE_KEY: z.string().optional(),
  SQUARE_ENVIRONMENT: z.enum(['sandbox', 'production']).default('sandbox'),
  SQUARE_BASE_URL: z.string().url().optional(),
  /** The Square application's id: our card page's Web Payments SDK needs it to save a card (autopay). */
  SQUARE_APPLICATION_ID: z.string().optional(),
  /**
   * Companies' own accounts (platform/payments/connections): Stripe Connect's client id (ca_…, with
   * STRIPE_SECRET_KEY as the platform's key) and the Square application's secret (with
   * SQUARE_APPLICATION_ID). The OAuth pages' addresses point elsewhere in tests (the local stubs);
   * Square's defaults to its sandbox or production site by SQUARE_ENVIRONMENT.
   */
  STRIPE_CONNECT_CLIENT_ID: z.string().optional(),
  /** The signing secret of the Connect webhook endpoint (connected accounts' events), when it has its own. */
  STRIPE_CONNECT_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_CONNECT_URL: z.string().url().default('https://connect.stripe.com'),
  SQUARE_APPLICATION_SECRET: z.string().optional(),
  SQUARE_CONNECT_URL: z.string().url().optional(),
  /**
   * Xero (accounting export, features/billing/accounting): the installation's Xero app. Without a
   * client id and secret only the CSV export works. The URLs point elsewhere in tests (a local stub).
   */
  XERO_CLIENT_ID: z.string().optional(),
  XERO_CLIENT_SECRET: z.string().optional(),
  XERO_LOGIN_URL: z.string().url().default('https://login.xero.com'),
  XERO_IDENTITY_URL: z.string().url().default('https://identity.xero.com'),
  XERO_API_URL: z.string().url().default('https://api.xero.com'),
  /**
   * Mailchimp (features/communications/mailchimp): the Marketing API's address, `{dc}` standing for
   * the account's data centre (tests point it at a local stub); the installation's OAuth app (without
   * a client id and secret, companies connect with an API key only) and Mailchimp's login address.
   */
  MAILCHIMP_API_URL: z.string().default('https://{dc}.api.mailchimp.com/3.0'),
  MAILCHIMP_LOGIN_URL: z.string().url().default('https://login.mailchimp.com'),
  MAILCHIMP_CLIENT_ID: z.string().optional(),
  MAILCHIMP_CLIENT_SECRET: z.string().optional(),
  /**
   * The installation's own Stripe account, which bills companies for their plans (Stripe Billing,
   * platform/installation/billing.ts). Without a secret key plans are picked without payment (the
   * test provider of the demo and tests). Each plan's Stripe Price id is set on the plan.
   */
  INSTALLATION_STRIPE_SECRET_KEY: z.string().optional(),
  INSTALLATION_STRIPE_WEBHOOK_SECRET: z.string().optional(),
  INSTALLATION_STRIPE_API_BASE: z.string().url().optional(),
  /** Seals stored third-party tokens (Xero's); without it a random key is kept in DATA_DIR/secrets.key. */
  SECRETS_KEY: z.string().min(32).optional(),
  /** Run the background job workers inside the server (default). Turn off when `npm run worker` runs them. */
  WORKERS_IN_SERVER: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(600),
  /** How long a query waits for a row lock (a booking rush on one session) before answering 503. */
  LOCK_TIMEOUT_MS: z.coerce.number().int().positive().default(5_000),
  /**
   * Enrolment day (features/classes/enrolment-queue.service.ts): the waiting room opens this many
   * minutes before a term's public enrolment, lets queued parents in at this rate (sized so their
   * checkouts finish on one server), and an admitted parent may check out for this long.
   */
  ENROLMENT_QUEUE_WAITING_ROOM_MINUTES: z.coerce.number().int().min(0).max(1440).default(30),
  ENROLMENT_QUEUE_ADMIT_PER_SECOND: z.coerce.number().int().min(1).max(1000).default(10),
  ENROLMENT_QUEUE_ADMITTED_MINUTES: z.coerce.number().int().min(1).max(1440).default(30),
});

export type Config = z.infer<typeof envSchema> & {
  publicUrl: string;
  filesDir: string;
  /** Without SMTP_URL, mail is also written here as .eml files (platform/mail). */
  mailDir: string;
};

/** Parses the environment once, in one place; a bad value stops the start with a clear message. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  return {
    ...config,
    DATA_DIR: path.resolve(config.DATA_DIR),
    publicUrl: (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, ''),
    filesDir: path.join(path.resolve(config.DATA_DIR), 'files'),
    mailDir: path.join(path.resolve(config.DATA_DIR), 'mail'),
  };
}
