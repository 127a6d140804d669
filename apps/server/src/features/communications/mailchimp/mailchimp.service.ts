import {
  type MailingAudiences,
  type MailingConnectInput,
  type MailingStatus,
  type MailingSyncResponse,
  mailingMessages,
} from '@tumble/contracts/integrations';
import { and, asc, eq, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import type { AuthContext } from '../../../platform/auth.ts';
import type { AppDeps } from '../../../platform/deps.ts';
import { BadRequestError, NotFoundError } from '../../../platform/errors.ts';
import { enabledModules } from '../../../platform/modules.ts';
import { randomToken, sha256 } from '../../../platform/secrets.ts';
import { Tenant } from '../../../platform/tenancy.ts';
import { todayIn } from '../../../platform/time.ts';
import { open, seal } from '../../../platform/token-box.ts';
import { companyOf } from '../../accounts/accounts.service.ts';
import { familyChoices } from '../../accounts/people.service.ts';
import { currentClassTagsByChild } from '../../classes/marketing-tags.service.ts';
import { childrenByIds } from '../../students/children.service.ts';
import { marketingStatusOf, setMarketingConsent } from '../consent.service.ts';
import { mailchimpConnections, mailchimpMembers } from './mailchimp.tables.ts';
import {
  dataCentreOfKey,
  MailchimpClient,
  type MailchimpCredential,
  MailchimpError,
  mailchimpOAuthAvailable,
} from './mailchimp-client.ts';

/**
 * The mailing integration (issue 16, SPEC integrations/mailing): families whose marketing status
 * allows mail ('inferred' or 'granted', features/communications/consent.service.ts) are kept in
 * the company's Mailchimp audience as subscribed members (first and last name, tags by the class
 * types and terms of their children's current places); families who withdrew are unsubscribed
 * there. Unsubscribes made in Mailchimp flow back (its webhook, and a read of unsubscribed members
 * on every sync) as a withdrawal of marketing consent; transactional mail never reads it.
 */

type Connection = typeof mailchimpConnections.$inferSelect;

export const mailchimpCallbackPath = '/integrations/mailchimp/callback';
export const mailchimpWebhookPath = '/integrations/mailchimp/webhook';
const settingsPage = '/admin/integrations/mailing';
/** Minutes a login at Mailchimp may take before its `state` is refused. */
const CONNECT_MINUTES = 15;
/** A sync that died is taken over after this. */
const LEASE_MINUTES = 5;

const redirectUri = (deps: AppDeps) => `${deps.config.publicUrl}${mailchimpCallbackPath}`;

const clientOf = (deps: AppDeps) => new MailchimpClient(deps.config);

async function connectionOf(db: Db, tenant: Tenant): Promise<Connection | null> {
  const [row] = await db.select().from(mailchimpConnections).where(tenant.where(mailchimpConnections));
  return row ?? null;
}

function credentialOf(deps: AppDeps, row: Connection): MailchimpCredential | null {
  if (!row.credential || !row.method || !row.dataCentre) return null;
  return { method: row.method, secret: open(deps.config, row.credential), dataCentre: row.dataCentre };
}

/** The connection with a working credential, or a clear refusal. */
async function connectedOf(deps: AppDeps, tenant: Tenant) {
  const row = await connectionOf(deps.database.db, tenant);
  const credential = row ? credentialOf(deps, row) : null;
  if (!row || !credential) throw new BadRequestError(mailingMessages.notConnected);
  return { row, credential };
}

/** What the mailing page shows. */
export async function mailingStatusOf(deps: AppDeps, tenant: Tenant): Promise<MailingStatus> {
  const { db } = deps.database;
  const row = await connectionOf(db, tenant);
  const connected = Boolean(row?.credential);
  const [counts] = await db
    .select({
      subscribed: sql<number>`count(*) filter (where ${mailchimpMembers.status} = 'subscribed' and ${mailchimpMembers.error} is null)::int`,
      unsubscribed: sql<number>`count(*) filter (where ${mailchimpMembers.status} = 'unsubscribed' and ${mailchimpMembers.error} is null)::int`,
    })
    .from(mailchimpMembers)
    .where(tenant.where(mailchimpMembers));
  const failed = await db
    .select({
      parentId: mailchimpMembers.parentId,
      email: mailchimpMembers.email,
      error: mailchimpMembers.error,
    })
    .from(mailchimpMembers)
    .where(tenant.where(mailchimpMembers, isNotNull(mailchimpMembers.error)))
    .orderBy(asc(mailchimpMembers.email))
    .limit(50);
  const names = new Map((await familyChoices(db, tenant)).map((f) => [f.id, f.fullName]));
  return {
    state: connected ? 'connected' : 'not_connected',
    method: connected ? (row?.method ?? null) : null,
    account: connected ? (row?.accountName ?? null) : null,
    connected_at: connected ? (row?.connectedAt?.toISOString() ?? null) : null,
    audience: connected && row?.listId ? { id: row.listId, name: row.listName ?? row.listId } : null,
    oauth_available: mailchimpOAuthAvailable(deps.config),
    last_sync_at: row?.lastSyncAt?.toISOString() ?? null,
    last_error: row?.lastError ?? null,
    subscribed: counts?.subscribed ?? 0,
    unsubscribed: counts?.unsubscribed ?? 0,
    failed: failed.map((f) => ({
      family: names.get(f.parentId) ?? f.email,
      email: f.email,
      error: f.error ?? '',
    })),
  };
}

/** What the Integrations page shows of the mailing connection. */
export async function mailingSummary(
  deps: AppDeps,
  tenant: Tenant,
): Promise<{
  connected: boolean;
  detail: string | null;
  lastSyncAt: Date | null;
  lastError: string | null;
}> {
  const row = await connectionOf(deps.database.db, tenant);
  const connected = Boolean(row?.credential);
  return {
    connected,
    detail: connected
      ? row?.listName
        ? `Mailchimp audience ${row.listName}`
        : `Mailchimp${row?.accountName ? ` (${row.accountName})` : ''}: ${mailingMessages.noAudience}`
      : null,
    lastSyncAt: row?.lastSyncAt ?? null,
    lastError: row?.lastError ?? null,
  };
}

/** Makes the company's row, empty, the first time something is stored. */
async function ensureConnection(db: Db, tenant: Tenant): Promise<void> {
  await db.insert(mailchimpConnections).values(tenant.values({})).onConflictDoNothing();
}

/**
 * Keeps a credential that works (GET /ping answers); the audience chosen before stays when the new
 * credential can read it (a key replaced in the same account), else it is chosen again.
 */
async function storeCredential(
  deps: AppDeps,
  tenant: Tenant,
  userId: number | null,
  credential: MailchimpCredential,
  accountName: string | null,
): Promise<void> {
  const { db } = deps.database;
  const client = clientOf(deps);
  const before = await connectionOf(db, tenant);
  let keepList = false;
  if (before?.listId) {
    try {
      await client.list(credential, before.listId);
      keepList = true;
    } catch (error) {
      if (!(error instanceof MailchimpError)) throw error;
    }
  }
  await ensureConnection(db, tenant);
  if (!keepList) await forgetAudience(deps, tenant, before);
  await db
    .update(mailchimpConnections)
    .set({
      method: credential.method,
      credential: seal(deps.config, credential.secret),
      dataCentre: credential.dataCentre,
      accountName,
      connectedAt: new Date(),
      connectedBy: userId,
      lastError: null,
    })
    .where(tenant.where(mailchimpConnections));
}

/** Connects with an API key. A key Mailchimp refuses is answered with a clear error and nothing is stored. */
export async function connectWithApiKey(
  deps: AppDeps,
  auth: AuthContext,
  input: MailingConnectInput,
): Promise<void> {
  const dataCentre = dataCentreOfKey(input.api_key);
  if (!dataCentre) throw new BadRequestError(mailingMessages.badKey);
  const credential: MailchimpCredential = { method: 'api_key', secret: input.api_key, dataCentre };
  const client = clientOf(deps);
  let accountName: string | null;
  try {
    await client.ping(credential);
    accountName = await client.accountName(credential);
  } catch (error) {
    if (!(error instanceof MailchimpError)) throw error;
    throw new BadRequestError(
      error.status === 401 || error.status === 403 ? mailingMessages.badKey : error.message,
    );
  }
  await storeCredential(deps, auth.tenant, auth.userId, credential, accountName);
}

/** Step 1 of "Connect with Mailchimp": Mailchimp's login page, with a one-time state. */
export async function startMailchimpOAuth(deps: AppDeps, auth: AuthContext): Promise<{ url: string }> {
  if (!mailchimpOAuthAvailable(deps.config)) throw new BadRequestError(mailingMessages.oauthNotAvailable);
  const { db } = deps.database;
  await ensureConnection(db, auth.tenant);
  const state = randomToken();
  await db
    .update(mailchimpConnections)
    .set({
      oauthStateHash: sha256(state),
      oauthStartedBy: auth.userId,
      oauthStateExpiresAt: new Date(Date.now() + CONNECT_MINUTES * 60_000),
    })
    .where(auth.tenant.where(mailchimpConnections));
  return { url: clientOf(deps).authorizeUrl(state, redirectUri(deps)) };
}

/**
 * Step 2: Mailchimp sends the browser back with `code` and our `state` (which names the company;
 * the callback comes from Mailchimp's site, so there is no session to read). The token is sealed;
 * the account's data centre comes from the OAuth metadata call. Answers where to send the browser.
 */
export async function finishMailchimpOAuth(
  deps: AppDeps,
  query: { code?: string; state?: string; error?: string },
): Promise<string> {
  const fail = (message: string) => `${settingsPage}?error=${encodeURIComponent(message)}`;
  if (!query.state) return fail('Mailchimp did not say which connection this was. Please connect again.');
  const { db } = deps.database;
  const [row] = await db
    .select()
    .from(mailchimpConnections)
    // cross-tenant: the one-time state (256 random bits, stored hashed) is what finds the company.
    .where(eq(mailchimpConnections.oauthStateHash, sha256(query.state)));
  if (!row?.oauthStateExpiresAt || row.oauthStateExpiresAt < new Date())
    return fail('This Mailchimp sign-in has expired. Please connect again.');
  const tenant = new Tenant(row.companyId);
  await db
    .update(mailchimpConnections)
    .set({ oauthStateHash: null, oauthStateExpiresAt: null })
    .where(tenant.where(mailchimpConnections));
  if (query.error || !query.code) return fail('Mailchimp was not connected: access was not allowed.');
  try {
    const token = await clientOf(deps).exchangeCode(query.code, redirectUri(deps));
    await storeCredential(
      deps,
      tenant,
      row.oauthStartedBy,
      { method: 'oauth', secret: token.accessToken, dataCentre: token.dataCentre },
      token.accountName,
    );
    return `${settingsPage}?connected=1`;
  } catch (error) {
    if (error instanceof MailchimpError) return fail(error.message);
    throw error;
  }
}

/** The account's audiences to choose from. */
export async function mailingAudiencesOf(deps: AppDeps, tenant: Tenant): Promise<MailingAudiences> {
  const { credential } = await connectedOf(deps, tenant);
  try {
    const lists = await clientOf(deps).lists(credential);
    return {
      audiences: lists.map((l) => ({ id: l.id, name: l.name, members: l.stats?.member_count ?? 0 })),
    };
  } catch (error) {
    if (error instanceof MailchimpError) throw new BadRequestError(error.message);
    throw error;
  }
}

/** Removes our webhook from the audience (when Mailchimp still answers) and forgets what was sent to it. */
async function forgetAudience(deps: AppDeps, tenant: Tenant, row: Connection | null): Promise<void> {
  const { db } = deps.database;
  const credential = row ? credentialOf(deps, row) : null;
  if (row?.listId && row.webhookId && credential) {
    try {
      await clientOf(deps).deleteWebhook(credential, row.listId, row.webhookId);
    } catch (error) {
      if (!(error instanceof MailchimpError)) throw error;
    }
  }
  await db.delete(mailchimpMembers).where(tenant.where(mailchimpMembers));
  if (row) {
    await db
      .update(mailchimpConnections)
      .set({
        listId: null,
        listName: null,
        webhookId: null,
        webhookSecretHash: null,
        unsubscribesReadAt: null,
      })
      .where(tenant.where(mailchimpConnections));
  }
}

/**
 * Chooses the audience families are kept in, and asks Mailchimp to tell us of unsubscribes there
 * (a webhook whose URL holds a secret naming the company). When Mailchimp cannot reach our address
 * (a server without a public address), the unsubscribes are still read back on every sync.
 */
export async function chooseAudience(deps: AppDeps, tenant: Tenant, listId: string): Promise<void> {
  const { db } = deps.database;
  const { row, credential } = await connectedOf(deps, tenant);
  const client = clientOf(deps);
  let listName: string;
  try {
    listName = (await client.list(credential, listId)).name;
  } catch (error) {
    if (!(error instanceof MailchimpError)) throw error;
    throw new BadRequestError(error.status === 404 ? mailingMessages.unknownAudience : error.message);
  }
  if (row.listId === listId) return;
  await forgetAudience(deps, tenant, row);
  // The secret is stored first: Mailchimp calls the URL to check it before it makes the webhook.
  const secret = randomToken();
  await db
    .update(mailchimpConnections)
    .set({
      listId,
      listName,
      webhookSecretHash: sha256(secret),
      unsubscribesReadAt: new Date(),
      lastError: null,
    })
    .where(tenant.where(mailchimpConnections));
  try {
    const webhookId = await client.createWebhook(
      credential,
      listId,
      `${deps.config.publicUrl}${mailchimpWebhookPath}/${secret}`,
    );
    await db.update(mailchimpConnections).set({ webhookId }).where(tenant.where(mailchimpConnections));
  } catch (error) {
    if (!(error instanceof MailchimpError)) throw error;
    await db
      .update(mailchimpConnections)
      .set({
        webhookSecretHash: null,
        lastError: `Mailchimp could not reach this server to tell it of unsubscribes (${error.message}); they are read back on every sync instead.`,
      })
      .where(tenant.where(mailchimpConnections));
  }
}

/** Forgets the connection (removing our webhook from the audience when Mailchimp still answers). */
export async function disconnectMailchimp(deps: AppDeps, tenant: Tenant): Promise<void> {
  const { db } = deps.database;
  const row = await connectionOf(db, tenant);
  if (!row) return;
  await forgetAudience(deps, tenant, row);
  await db.delete(mailchimpConnections).where(tenant.where(mailchimpConnections));
}

/** 'Sam Taylor-Jones' → FNAME Sam, LNAME Taylor-Jones (users hold one full name). */
function namesOf(fullName: string): { FNAME: string; LNAME: string } {
  const [first = '', ...rest] = fullName.trim().split(/\s+/);
  return { FNAME: first, LNAME: rest.join(' ') };
}

/** Each family's tags: the class types and terms of their children's current places, sorted. */
async function tagsByFamily(db: Db, tenant: Tenant): Promise<Map<number, string[]>> {
  const today = todayIn((await companyOf(db, tenant)).timeZone);
  const byChild = await currentClassTagsByChild(db, tenant, today);
  const kids = await childrenByIds(db, tenant, [...byChild.keys()]);
  const tags = new Map<number, Set<string>>();
  for (const kid of kids) {
    const set = tags.get(kid.parentId) ?? new Set<string>();
    for (const place of byChild.get(kid.id) ?? []) {
      set.add(place.classType);
      set.add(place.term);
    }
    tags.set(kid.parentId, set);
  }
  return new Map([...tags].map(([id, set]) => [id, [...set].sort()]));
}

/** What was sent for a member: only a change of it sends the family again. */
function fingerprintOf(member: {
  email: string;
  status: 'subscribed' | 'unsubscribed';
  names?: object;
  tags?: string[];
}) {
  // An unsubscribed member is only its address and status: names and tags are not sent then.
  const { email, status } = member;
  return sha256(JSON.stringify(status === 'unsubscribed' ? { email, status } : member));
}

/**
 * Records that the family of `email` unsubscribed in Mailchimp: marketing consent withdrawn
 * (source 'mailchimp'), and the member known unsubscribed so it is not sent again. An address of
 * no family of the company changes nothing.
 */
async function applyUnsubscribe(
  db: Db,
  tenant: Tenant,
  email: string,
  /** Given when the sync read the address back from Mailchimp's unsubscribed members. */
  readBack?: Map<string, number>,
): Promise<boolean> {
  const address = email.trim().toLowerCase();
  const byEmail =
    readBack ?? new Map((await familyChoices(db, tenant)).map((f) => [f.email.toLowerCase(), f.id]));
  const parentId = byEmail.get(address);
  if (parentId === undefined) return false;
  if (readBack) {
    // Read back, an unsubscribe we sent ourselves (or already read) is no news: a family who has
    // consented again since must not be withdrawn by it before the next push resubscribes them.
    const [known] = await db
      .select({ status: mailchimpMembers.status })
      .from(mailchimpMembers)
      .where(
        tenant.where(
          mailchimpMembers,
          eq(mailchimpMembers.parentId, parentId),
          eq(mailchimpMembers.email, address),
        ),
      );
    if (known?.status === 'unsubscribed') return false;
  }
  const status = (await marketingStatusOf(db, tenant, [parentId])).get(parentId);
  if (status !== 'withdrawn') await setMarketingConsent(db, tenant, parentId, false, 'mailchimp');
  await db
    .update(mailchimpMembers)
    .set({
      status: 'unsubscribed',
      fingerprint: fingerprintOf({ email: address, status: 'unsubscribed' }),
      error: null,
      syncedAt: new Date(),
    })
    .where(
      tenant.where(
        mailchimpMembers,
        eq(mailchimpMembers.parentId, parentId),
        eq(mailchimpMembers.email, address),
      ),
    );
  return true;
}

/**
 * Mailchimp's webhook: `type=unsubscribe` with `data[email]` (form-encoded) withdraws the family's
 * marketing consent. The secret in the URL names the company; an unknown secret is 404. Repeating
 * it changes nothing more.
 */
export async function receiveMailchimpWebhook(
  deps: AppDeps,
  secret: string,
  body: Record<string, string>,
): Promise<void> {
  const { db } = deps.database;
  const [row] = await db
    .select({ companyId: mailchimpConnections.companyId, listId: mailchimpConnections.listId })
    .from(mailchimpConnections)
    // cross-tenant: the webhook URL's secret (256 random bits, stored hashed) is what names the company.
    .where(eq(mailchimpConnections.webhookSecretHash, sha256(secret)));
  if (!row) throw new NotFoundError();
  const email = body['data[email]'];
  if (body.type !== 'unsubscribe' || !email) return;
  if (body['data[list_id]'] && body['data[list_id]'] !== row.listId) return;
  await applyUnsubscribe(db, new Tenant(row.companyId), email);
}

/** Takes the company's sync lease when it is free, or (`renew`) extends the one this sync holds. */
async function takeLease(db: Db, tenant: Tenant, renew = false): Promise<boolean> {
  const taken = await db
    .update(mailchimpConnections)
    .set({ syncLeaseUntil: sql`now() + make_interval(mins => ${LEASE_MINUTES})` })
    .where(
      tenant.where(
        mailchimpConnections,
        renew
          ? undefined
          : or(
              isNull(mailchimpConnections.syncLeaseUntil),
              sql`${mailchimpConnections.syncLeaseUntil} < now()`,
            ),
      ),
    )
    .returning({ id: mailchimpConnections.id });
  return taken.length > 0;
}

/** A family's trouble (Mailchimp refused this member) rather than the connection's. */
const memberTrouble = (error: MailchimpError) => error.status === 400 || error.status === 404;

/**
 * One sync of the company: first the unsubscribes made in Mailchimp are read back (so nobody who
 * just left is sent as subscribed), then every family whose member changed since it was last sent
 * (address, names, consent, tags) is sent: PUT the member, then its tags (added and removed).
 * A family Mailchimp refuses (400) is recorded with Mailchimp's words and the rest go on; a refused
 * connection (401), or Mailchimp still too busy after retries (429), stops the sync with the reason.
 */
export async function syncMailchimp(deps: AppDeps, tenant: Tenant): Promise<MailingSyncResponse> {
  const { db } = deps.database;
  const { row, credential } = await connectedOf(deps, tenant);
  if (!row.listId) throw new BadRequestError(mailingMessages.noAudience);
  const listId = row.listId;
  if (!(await takeLease(db, tenant)))
    return { sent: 0, failed: 0, message: 'A sync is already running; it will finish in a moment.' };
  const client = clientOf(deps);
  let sent = 0;
  let failed = 0;
  let lastError: string | null = null;
  try {
    const families = await familyChoices(db, tenant);
    const byEmail = new Map(families.map((f) => [f.email.toLowerCase(), f.id]));

    const readFrom = row.unsubscribesReadAt ?? row.connectedAt ?? new Date();
    const readAt = new Date();
    // A minute of overlap: a change Mailchimp stamped just before our last read is read again (harmless).
    for (const email of await client.unsubscribedSince(
      credential,
      listId,
      new Date(readFrom.getTime() - 60_000),
    ))
      await applyUnsubscribe(db, tenant, email, byEmail);
    await db
      .update(mailchimpConnections)
      .set({ unsubscribesReadAt: readAt })
      .where(tenant.where(mailchimpConnections));

    const statuses = await marketingStatusOf(
      db,
      tenant,
      families.map((f) => f.id),
    );
    const tags = await tagsByFamily(db, tenant);
    const members = new Map(
      (await db.select().from(mailchimpMembers).where(tenant.where(mailchimpMembers))).map((m) => [
        m.parentId,
        m,
      ]),
    );
    let handled = 0;
    for (const family of families) {
      // A first sync of a large company takes minutes: keep the lease so no other process starts one.
      if (++handled % 100 === 0) await takeLease(db, tenant, true);
      const member = members.get(family.id);
      const status =
        statuses.get(family.id) === 'withdrawn' ? ('unsubscribed' as const) : ('subscribed' as const);
      // A family who withdrew and was never sent: Mailchimp has nothing to be told.
      if (status === 'unsubscribed' && !member) continue;
      const email = family.email.toLowerCase();
      const names = namesOf(family.fullName);
      const familyTags = status === 'subscribed' ? (tags.get(family.id) ?? []) : (member?.tags ?? []);
      const fingerprint = fingerprintOf({ email, status, names, tags: familyTags });
      if (member?.fingerprint === fingerprint) continue;
      const sentTags = member && !member.error ? member.tags : [];
      try {
        await client.upsertMember(credential, listId, member?.email ?? email, {
          email_address: email,
          status_if_new: status,
          // `status` would resubscribe whoever unsubscribed in Mailchimp since our last read, so it is
          // sent only to unsubscribe, or to resubscribe a family we unsubscribed who consented again.
          ...(status === 'unsubscribed' || member?.status === 'unsubscribed' ? { status } : {}),
          ...(status === 'subscribed' ? { merge_fields: names } : {}),
        });
        const changes = [
          ...familyTags
            .filter((t) => !sentTags.includes(t))
            .map((name) => ({ name, status: 'active' as const })),
          ...sentTags
            .filter((t) => !familyTags.includes(t))
            .map((name) => ({ name, status: 'inactive' as const })),
        ];
        if (status === 'subscribed' && changes.length > 0)
          await client.setTags(credential, listId, email, changes);
        await saveMember(db, tenant, family.id, {
          email,
          status,
          tags: familyTags,
          fingerprint,
          error: null,
        });
        sent++;
      } catch (error) {
        if (!(error instanceof MailchimpError) || !memberTrouble(error)) throw error;
        // Not sent again until the family changes: the same member would be refused the same way.
        await saveMember(db, tenant, family.id, {
          email: member?.email ?? email,
          status: member?.status ?? status,
          tags: sentTags,
          fingerprint,
          error: error.message,
        });
        failed++;
      }
    }
    // Families no longer on the books (an account disabled, or merged into another) are archived there.
    const current = new Set(families.map((f) => f.id));
    for (const member of members.values()) {
      if (current.has(member.parentId)) continue;
      try {
        await client.archiveMember(credential, listId, member.email);
        sent++;
      } catch (error) {
        // Not there (never added, or removed in Mailchimp): nothing to archive.
        if (!(error instanceof MailchimpError) || error.status !== 404) throw error;
      }
      await db.delete(mailchimpMembers).where(tenant.byId(mailchimpMembers, member.id));
    }
    if (failed > 0)
      lastError =
        failed === 1
          ? '1 family could not be sent to Mailchimp: see below.'
          : `${failed} families could not be sent to Mailchimp: see below.`;
  } catch (error) {
    if (!(error instanceof MailchimpError)) throw error;
    lastError = error.message;
  } finally {
    await db
      .update(mailchimpConnections)
      .set({ syncLeaseUntil: null, lastSyncAt: new Date(), lastError })
      .where(tenant.where(mailchimpConnections));
  }
  return {
    sent,
    failed,
    message:
      lastError ??
      (sent === 0
        ? mailingMessages.nothingToSend
        : sent === 1
          ? 'Sent 1 family to Mailchimp.'
          : `Sent ${sent} families to Mailchimp.`),
  };
}

async function saveMember(
  db: Db,
  tenant: Tenant,
  parentId: number,
  values: {
    email: string;
    status: 'subscribed' | 'unsubscribed';
    tags: string[];
    fingerprint: string;
    error: string | null;
  },
) {
  await db
    .insert(mailchimpMembers)
    .values(tenant.values({ parentId, ...values }))
    .onConflictDoUpdate({
      target: [mailchimpMembers.companyId, mailchimpMembers.parentId],
      set: { ...values, syncedAt: sql`now()` },
    });
}

/** The job: every company with an audience chosen, one after the other; one company's trouble never stops the rest. */
export async function syncConnectedMailchimp(deps: AppDeps): Promise<void> {
  const { db } = deps.database;
  const connected = await db
    .select({ companyId: mailchimpConnections.companyId })
    .from(mailchimpConnections)
    // cross-tenant: the job finds the companies that connected Mailchimp and chose an audience.
    .where(and(isNotNull(mailchimpConnections.credential), isNotNull(mailchimpConnections.listId)));
  for (const { companyId } of connected) {
    const tenant = new Tenant(companyId);
    // A company whose plan or admin turned integrations off keeps its connection but is not synced.
    if (!(await enabledModules(db, tenant)).has('integrations')) continue;
    try {
      await syncMailchimp(deps, tenant);
    } catch (error) {
      console.error(`[mailchimp.sync] company ${companyId}`, error);
      await db
        .update(mailchimpConnections)
        .set({
          lastError: 'The last sync stopped unexpectedly; it will be tried again.',
          syncLeaseUntil: null,
        })
        .where(new Tenant(companyId).where(mailchimpConnections));
    }
  }
}
