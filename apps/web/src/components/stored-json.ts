import type { z } from 'zod';

/**
 * Browser storage for data handed from one page to the next (SPEC.md point 3: the event and party
 * checkout data). Storage can be blocked (privacy mode); then nothing is kept and the next page
 * finds nothing, which it must handle anyway.
 */
export function saveStoredJson(key: string, value: unknown): void {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage blocked or full: the next page says the selection is missing.
  }
}

/** The stored value, or null when there is none or it is not in the expected shape. */
export function loadStoredJson<T>(key: string, schema: z.ZodType<T>): T | null {
  try {
    const raw = window.localStorage.getItem(key);
    if (!raw) return null;
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function removeStoredJson(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Nothing to clear when storage is blocked.
  }
}
