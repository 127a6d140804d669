import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';

/**
 * Outside services' tokens (Xero's, Mailchimp's, Stripe Connect's, Square's) must be read back (unlike passwords and links, which are stored
 * as hashes, platform/secrets.ts), so they are sealed with AES-256-GCM: a leaked table or backup
 * does not hand anyone the company's accounts. The key is SECRETS_KEY (32 bytes, base64), or else a
 * random key kept beside the data (DATA_DIR/secrets.key, readable by the server's user only).
 */
function keyOf(config: Pick<Config, 'SECRETS_KEY' | 'DATA_DIR'>): Buffer {
  if (config.SECRETS_KEY) return createHash('sha256').update(config.SECRETS_KEY).digest();
  const file = path.join(config.DATA_DIR, 'secrets.key');
  if (!existsSync(file)) {
    mkdirSync(config.DATA_DIR, { recursive: true });
    // `wx`: a second process starting at the same moment keeps the first one's key.
    try {
      writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return createHash('sha256').update(readFileSync(file, 'utf8').trim()).digest();
}

/** `v1.<iv>.<tag>.<ciphertext>`, base64url. */
export function seal(config: Pick<Config, 'SECRETS_KEY' | 'DATA_DIR'>, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(config), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

export function open(config: Pick<Config, 'SECRETS_KEY' | 'DATA_DIR'>, sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Not a sealed value.');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(config), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
