import { describe, expect, it } from 'vitest';
import { publicUrlWarning } from './origin.ts';

describe('publicUrlWarning', () => {
  const base = { publicUrl: 'http://localhost:3000' };
  it('warns when PUBLIC_URL is unset and the server listens beyond loopback', () => {
    expect(publicUrlWarning({ ...base, HOST: '0.0.0.0', PUBLIC_URL: undefined })).toMatch(
      /^PUBLIC_URL is not set while listening on 0\.0\.0\.0: links in mail will point to http:\/\/localhost:3000\./,
    );
  });
  it('is quiet on loopback or with PUBLIC_URL set', () => {
    expect(publicUrlWarning({ ...base, HOST: '127.0.0.1', PUBLIC_URL: undefined })).toBeNull();
    expect(publicUrlWarning({ ...base, HOST: '0.0.0.0', PUBLIC_URL: 'https://gym.example' })).toBeNull();
  });
});
