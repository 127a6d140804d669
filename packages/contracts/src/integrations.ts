import { z } from 'zod';

/**
 * SPEC integrations: the Integrations page (/admin/integrations) listing every outside connection,
 * and the mailing connection (/admin/integrations/mailing): families who may receive marketing
 * mail are kept in a Mailchimp audience, tagged by class type and term; unsubscribes there flow back.
 */

/** A Mailchimp API key: 32 hex characters, a dash, and the data centre it lives in (e.g. `-us6`). */
export const mailchimpApiKey = z
  .string()
  .trim()
  .min(1, 'Please enter your Mailchimp API key.')
  .max(100, 'That is not a Mailchimp API key.')
  .regex(
    /^[A-Za-z0-9]+-[a-z]+[0-9]+$/,
    'That is not a Mailchimp API key: it ends with your data centre, like -us6.',
  );

export const mailingConnectInput = z.object({ api_key: mailchimpApiKey });
export type MailingConnectInput = z.infer<typeof mailingConnectInput>;

export const mailingAudienceInput = z.object({
  list_id: z.string().trim().min(1, 'Please choose an audience.').max(50, 'Please choose an audience.'),
});
export type MailingAudienceInput = z.infer<typeof mailingAudienceInput>;

export const mailingStates = ['not_configured', 'not_connected', 'connected'] as const;
export type MailingState = (typeof mailingStates)[number];

export const mailingStatus = z.object({
  state: z.enum(mailingStates),
  /** How the company connected: its API key, or Mailchimp's login (OAuth). */
  method: z.enum(['api_key', 'oauth']).nullable(),
  /** The Mailchimp account's name. */
  account: z.string().nullable(),
  connected_at: z.string().nullable(),
  audience: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** The installation has a Mailchimp app (OAuth client id and secret): "Connect with Mailchimp". */
  oauth_available: z.boolean(),
  last_sync_at: z.string().nullable(),
  last_error: z.string().nullable(),
  subscribed: z.number().int(),
  unsubscribed: z.number().int(),
  /** Families Mailchimp refused, with its reason. */
  failed: z.array(z.object({ family: z.string(), email: z.string(), error: z.string() })),
});
export type MailingStatus = z.infer<typeof mailingStatus>;

export const mailingAudiences = z.object({
  audiences: z.array(z.object({ id: z.string(), name: z.string(), members: z.number().int() })),
});
export type MailingAudiences = z.infer<typeof mailingAudiences>;

export const mailingSyncResponse = z.object({
  sent: z.number().int(),
  failed: z.number().int(),
  message: z.string(),
});
export type MailingSyncResponse = z.infer<typeof mailingSyncResponse>;

export const mailingConnectResponse = z.object({ url: z.string() });

export const mailingMessages = {
  badKey:
    'Mailchimp did not accept this API key. Copy it again from Mailchimp (Profile › Extras › API keys).',
  notConnected: 'Mailchimp is not connected.',
  noAudience: 'Choose the audience families are kept in.',
  unknownAudience: 'Mailchimp has no such audience. Choose one from the list.',
  connected: 'Connected to Mailchimp.',
  audienceSaved: 'Audience saved. Families are sent to it within a minute.',
  disconnected: 'Disconnected from Mailchimp.',
  nothingToSend: 'Every family is already up to date in Mailchimp.',
  oauthNotAvailable: 'Connecting with a Mailchimp login is not set up on this installation: use an API key.',
} as const;

/** The Integrations page: one row per outside connection. */
export const integrationKinds = ['accounting', 'mailing', 'google', 'payments'] as const;
export type IntegrationKind = (typeof integrationKinds)[number];

export const integrationStates = ['connected', 'not_connected', 'not_configured', 'error'] as const;
export type IntegrationState = (typeof integrationStates)[number];

export const integrationStateLabels: Record<IntegrationState, string> = {
  connected: 'Connected',
  not_connected: 'Not connected',
  not_configured: 'Not set up',
  error: 'Needs attention',
};

export const integrationSummary = z.object({
  kind: z.enum(integrationKinds),
  name: z.string(),
  /** What it does, in a sentence. */
  description: z.string(),
  state: z.enum(integrationStates),
  /** Whom or what it is connected to ("Xero: Demo Gym Pty Ltd", "Mailchimp audience Families"). */
  detail: z.string().nullable(),
  last_sync_at: z.string().nullable(),
  last_error: z.string().nullable(),
  /** The connection's own page, where it is connected and disconnected (null: nothing to set up). */
  page: z.string().nullable(),
});
export type IntegrationSummary = z.infer<typeof integrationSummary>;

export const integrationsResponse = z.object({ integrations: z.array(integrationSummary) });
export type IntegrationsResponse = z.infer<typeof integrationsResponse>;
