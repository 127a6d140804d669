import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('defaults to port 3000, embedded PostgreSQL under .data and demo data on', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.DATA_DIR.endsWith(`${path.sep}.data`)).toBe(true);
    expect(config.SEED_DEMO).toBe(true);
    expect(config.publicUrl).toBe('http://localhost:3000');
  });

  it('stops with a message naming the bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
  });

  it('keeps files under DATA_DIR and strips a trailing slash from PUBLIC_URL', () => {
    const config = loadConfig({ DATA_DIR: '/tmp/x', PUBLIC_URL: 'https://gym.example/' });
    expect(config.filesDir).toBe('/tmp/x/files');
    expect(config.publicUrl).toBe('https://gym.example');
  });
});
