import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import type { Database, Db } from '../db/client.ts';
import type { Tenant } from './tenancy.ts';

/**
 * The public read cache (decision 021): per process, per company, what every parent reads and
 * staff rarely change (the company by its authhash, a published event with its sessions and
 * prices, party slots and pricing, terms, …). Never places taken: those are read live.
 *
 * Invalidation cannot be forgotten: triggers on the cached tables (migrations 0056 and 0057)
 * `pg_notify('tumble_cache', company_id)` on every committed write, from the engine, a service, a
 * job, another process or psql. Each process LISTENs on one connection of its own and drops the
 * company's entries when told. Without that connection the cache is bypassed.
 */

/** The NOTIFY channel the triggers write to. */
export const CACHE_CHANNEL = 'tumble_cache';

/**
 * The tables whose rows the cache holds. Each has the notify triggers (a test checks it): a read
 * wrapped in `cached()` must only read these. `plans` notifies every company (`*`).
 */
export const CACHED_TABLES = [
  'companies',
  'plans',
  'subscriptions',
  'payment_methods',
  'events',
  'event_sessions',
  'event_tickets',
  'event_price_tiers',
  'event_contacts',
  'event_downloads',
  'venues',
  'restricted_dates',
  'insurances',
  'surcharges',
  'payment_terms',
  'party_slots',
  'birthday_pricing',
  'registration_forms',
  'terms',
  'term_closures',
  'class_types',
  'term_classes',
  'class_sessions',
] as const;

/**
 * Entries per process, all companies together, so memory stays flat (a few rows each: an event's
 * sessions are the biggest, ~10 KB for 30 sessions). The least recently used go first.
 */
export const MAX_ENTRIES = 5_000;
/** How long a write's request waits for its own notifications before it gives up on the cache. */
const SYNC_TIMEOUT_MS = 2_000;
/** Wait before listening again after the connection dropped. */
const RECONNECT_MS = 500;

interface Entry {
  companyId: number;
  value: unknown;
}

export class PublicCache {
  private readonly entries = new Map<string, Entry>();
  private readonly keysByCompany = new Map<number, Set<string>>();
  /** Bumped per company on each of its notifications: a read started before one stores nothing. */
  private readonly generations = new Map<number, number>();
  /** Bumped on every invalidation and every flush (a lookup by authhash knows its company only after). */
  private changes = 0;
  /** Bumped when everything is dropped. */
  private flushes = 0;
  private client: pg.Client | null = null;
  private live = false;
  private stopped = true;
  private reconnect: NodeJS.Timeout | null = null;
  private readonly syncs = new Map<string, () => void>();

  constructor(private readonly pool: pg.Pool) {}

  /** Serving from the cache: only while its listener is connected and listening. */
  get listening(): boolean {
    return this.live;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The listening connection (tests hold it busy: PostgreSQL then delays its notifications). */
  get listenerForTests(): pg.Client | null {
    return this.client;
  }

  /** The cached value of `key` for the company, else `load()`'s (stored unless invalidated meanwhile). */
  async read<T>(companyId: number, key: string, load: () => Promise<T>): Promise<T> {
    if (!this.live) return load();
    const full = `${companyId}\u0000${key}`;
    const hit = this.touch(full);
    if (hit) return hit.value as T;
    const generation = this.generations.get(companyId) ?? 0;
    const flushes = this.flushes;
    const value = await load();
    // (a) A write committed while this read ran: its result may predate it, so it is not kept.
    const unchanged = (this.generations.get(companyId) ?? 0) === generation && this.flushes === flushes;
    if (this.live && unchanged) this.store(companyId, full, value);
    return value;
  }

  /**
   * A company found by something other than its id (its authhash): cached under the company found,
   * so that company's invalidation drops it. Nothing found is not kept (a company may take it).
   */
  async readFinding<T extends { id: number }>(
    key: string,
    load: () => Promise<T | undefined>,
  ): Promise<T | undefined> {
    if (!this.live) return load();
    const full = `*\u0000${key}`;
    const hit = this.touch(full);
    if (hit) return hit.value as T;
    const changes = this.changes;
    const value = await load();
    if (value && this.live && this.changes === changes) this.store(value.id, full, value);
    return value;
  }

  /** An entry, moved to the end of the map's order (the map's first entry is the least recently used). */
  private touch(full: string): Entry | undefined {
    const entry = this.entries.get(full);
    if (entry) {
      this.entries.delete(full);
      this.entries.set(full, entry);
    }
    return entry;
  }

  private store(companyId: number, full: string, value: unknown) {
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.forget(oldest);
    }
    this.entries.set(full, { companyId, value: deepFreeze(value) });
    let keys = this.keysByCompany.get(companyId);
    if (!keys) {
      keys = new Set();
      this.keysByCompany.set(companyId, keys);
    }
    keys.add(full);
  }

  private forget(full: string) {
    const entry = this.entries.get(full);
    if (!entry) return;
    this.entries.delete(full);
    const keys = this.keysByCompany.get(entry.companyId);
    keys?.delete(full);
    if (keys?.size === 0) this.keysByCompany.delete(entry.companyId);
  }

  /** Drops a company's entries; reads of it already running will not store theirs. */
  invalidate(companyId: number) {
    this.generations.set(companyId, (this.generations.get(companyId) ?? 0) + 1);
    this.changes++;
    for (const full of this.keysByCompany.get(companyId) ?? []) this.entries.delete(full);
    this.keysByCompany.delete(companyId);
  }

  /** Drops everything (a plan changed, or the listener lost notifications). */
  clear() {
    this.changes++;
    this.flushes++;
    this.entries.clear();
    this.keysByCompany.clear();
  }

  private onNotification(payload: string | undefined) {
    if (!payload) return;
    if (payload.startsWith('sync:')) {
      this.syncs.get(payload.slice(5))?.();
      return;
    }
    if (payload === '*') return this.clear();
    const companyId = Number(payload);
    if (Number.isInteger(companyId)) this.invalidate(companyId);
  }

  /** Connects the listener (again after a drop, until stop()). */
  async start(): Promise<void> {
    this.stopped = false;
    if (this.client) return;
    const client = new pg.Client({ ...this.pool.options, keepAlive: true });
    this.client = client;
    client.on('notification', (message) => {
      if (message.channel === CACHE_CHANNEL) this.onNotification(message.payload);
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CACHE_CHANNEL}`);
      if (this.client === client && !this.stopped) this.live = true;
    } catch {
      this.lost(client);
    }
  }

  /** (c) The listener's connection dropped: notifications may be lost, so nothing cached is trusted. */
  private lost(client: pg.Client) {
    if (this.client !== client) return;
    this.client = null;
    this.live = false;
    this.clear();
    for (const resolve of this.syncs.values()) resolve();
    client.end().catch(() => {});
    if (!this.stopped && !this.reconnect) {
      this.reconnect = setTimeout(() => {
        this.reconnect = null;
        if (!this.stopped) void this.start();
      }, RECONNECT_MS);
      this.reconnect.unref();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.live = false;
    if (this.reconnect) clearTimeout(this.reconnect);
    this.reconnect = null;
    const client = this.client;
    this.client = null;
    this.clear();
    for (const resolve of this.syncs.values()) resolve();
    await client?.end().catch(() => {});
  }

  /**
   * (b) Read-your-writes: resolves once this process's listener has received every notification
   * committed before this call. PostgreSQL delivers notifications in commit order, so a marker
   * sent now arrives after them. Given up (and the cache emptied) past SYNC_TIMEOUT_MS.
   */
  async sync(): Promise<void> {
    if (!this.live) return;
    const id = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const arrived = new Promise<boolean>((resolve) => {
      this.syncs.set(id, () => resolve(true));
      timer = setTimeout(() => resolve(false), SYNC_TIMEOUT_MS);
    });
    try {
      await this.pool.query('select pg_notify($1, $2)', [CACHE_CHANNEL, `sync:${id}`]);
      if (!(await arrived)) this.clear();
    } catch {
      this.clear();
    } finally {
      clearTimeout(timer);
      this.syncs.delete(id);
    }
  }
}

/** Cached values are shared by every request: frozen, so a caller that mutates one fails loudly. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    if (!(value instanceof Date)) for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** One cache per database handle (so per process; a test may build a second handle as another process). */
const caches = new WeakMap<Db, { cache: PublicCache; users: number }>();

/** The cache of this database handle, if an app installed one. */
export function publicCacheOf(db: Db): PublicCache | undefined {
  return caches.get(db)?.cache;
}

/**
 * `load()` through the cache of `db` under the tenant's `key` (which must name everything the read
 * depends on). A transaction is another handle, so reads under a lock always go to the database.
 */
export function cached<T>(db: Db, tenant: Tenant, key: string, load: () => Promise<T>): Promise<T> {
  const cache = caches.get(db)?.cache;
  return cache ? cache.read(tenant.companyId, key, load) : load();
}

/** A company found by something other than its id (its authhash) through the cache of `db`: see readFinding. */
export function cachedFinding<T extends { id: number }>(
  db: Db,
  key: string,
  load: () => Promise<T | undefined>,
): Promise<T | undefined> {
  const cache = caches.get(db)?.cache;
  return cache ? cache.readFinding(key, load) : load();
}

/**
 * Installs the cache of `database` on the app: listening from ready to close, and every request
 * that may write (any method but GET/HEAD/OPTIONS) answers only once its own invalidations arrived.
 */
export function installPublicCache(app: FastifyInstance, database: Database): PublicCache {
  let holder = caches.get(database.db);
  if (!holder) {
    holder = { cache: new PublicCache(database.pool), users: 0 };
    caches.set(database.db, holder);
  }
  const { cache } = holder;
  holder.users++;
  app.addHook('onReady', () => cache.start());
  app.addHook('onClose', async () => {
    if (--holder.users === 0) {
      caches.delete(database.db);
      await cache.stop();
    }
  });
  app.addHook('onSend', async (request, _reply, payload) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS')
      await cache.sync();
    return payload;
  });
  return cache;
}
