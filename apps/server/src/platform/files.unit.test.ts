import { describe, expect, it } from 'vitest';
import { isFileKey, newFileKey, sniffImage } from './files.ts';

describe('file keys', () => {
  it('accepts only keys made by newFileKey', () => {
    expect(isFileKey(newFileKey('public', 7, 'png'))).toBe(true);
    for (const bad of [
      'public/7/../../etc/passwd',
      '/etc/passwd',
      'public/x/abcdefghijklmnopq.png',
      'other/7/abcdefghijklmnopq.png',
    ]) {
      expect(isFileKey(bad), bad).toBe(false);
    }
  });
});

describe('sniffImage', () => {
  it('recognises images by their bytes, not their names', () => {
    expect(sniffImage(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))?.type).toBe(
      'image/png',
    );
    expect(sniffImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))?.type).toBe('image/jpeg');
    expect(sniffImage(Buffer.from('GIF89a'))?.type).toBe('image/gif');
    expect(sniffImage(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))?.type).toBe('image/webp');
    expect(sniffImage(Buffer.from('<svg onload="alert(1)">'))).toBeNull();
  });
});
