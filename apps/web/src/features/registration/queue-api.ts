import {
  type QueueStatus,
  type QueueTicket,
  queueStatusResponse,
  queueTicket,
} from '@tumble/contracts/enrolment-queue';
import { z } from 'zod';
import { ApiError, api } from '../../api/client';
import { loadStoredJson, removeStoredJson, saveStoredJson } from '../../components/stored-json';

/** GET /api/v1/registration/queue: is the form behind the enrolment-day waiting room now? */
export function fetchQueueStatus(formKey: string, authhash: string): Promise<QueueStatus> {
  return api.get('/api/v1/registration/queue', {
    query: { f: formKey, authhash },
    schema: queueStatusResponse,
  });
}

/** POST /api/v1/registration/queue: a new ticket, at the back of the queue. */
export function takeQueueTicket(formKey: string, authhash: string): Promise<QueueTicket> {
  return api.post(
    '/api/v1/registration/queue',
    { form: formKey },
    { query: { authhash }, schema: queueTicket },
  );
}

/** GET /api/v1/registration/queue/:token: the ticket's place now; null when the server does not know it. */
export async function pollQueueTicket(token: string, authhash: string): Promise<QueueTicket | null> {
  try {
    return await api.get(`/api/v1/registration/queue/${encodeURIComponent(token)}`, {
      query: { authhash },
      schema: queueTicket,
    });
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return null;
    throw error;
  }
}

/**
 * The ticket is kept in localStorage, per company and form, so a reload (or a second tab) of the
 * same browser keeps its place instead of going to the back.
 */
const storedTicket = z.object({ token: z.string(), opens_at: z.string() });
export type StoredTicket = z.infer<typeof storedTicket>;

const storageKey = (authhash: string, formKey: string) => `tumble.queue.${authhash}.${formKey}`;

export function loadTicket(authhash: string, formKey: string): StoredTicket | null {
  return loadStoredJson(storageKey(authhash, formKey), storedTicket);
}

export function saveTicket(authhash: string, formKey: string, ticket: StoredTicket): void {
  saveStoredJson(storageKey(authhash, formKey), ticket);
}

export function forgetTicket(authhash: string, formKey: string): void {
  removeStoredJson(storageKey(authhash, formKey));
}
