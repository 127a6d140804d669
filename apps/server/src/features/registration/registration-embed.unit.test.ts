import { describe, expect, it } from 'vitest';
import { customQuestionLines, slugify } from './registration.resource.ts';
import { embedSnippet, normalizeOrigin, withFrameAncestors } from './registration-embed.ts';

describe('embed origins', () => {
  it.each([
    ['https://www.example.com.au', 'https://www.example.com.au'],
    ['  HTTPS://WWW.Example.COM/  ', 'https://www.example.com'],
    ['https://example.com:443', 'https://example.com'],
    ['https://example.com:8443', 'https://example.com:8443'],
    ['http://localhost:5173', 'http://localhost:5173'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['https://xn--bcher-kva.example', 'https://xn--bcher-kva.example'],
  ])('%s is the origin %s', (typed, origin) => {
    expect(normalizeOrigin(typed)).toBe(origin);
  });

  it.each([
    'www.example.com',
    'http://www.example.com',
    'ftp://example.com',
    'https://example.com/path',
    'https://example.com?q=1',
    'https://example.com#top',
    'https://*.example.com',
    'https://user:pw@example.com',
    "https://example.com 'unsafe-inline'",
    'https://example.com;script-src *',
    'https://',
    '',
  ])('refuses %j', (typed) => {
    expect(normalizeOrigin(typed)).toBeNull();
  });

  it('puts the origins in frame-ancestors, whatever it said before', () => {
    const csp = "default-src 'self';frame-ancestors 'self';object-src 'none'";
    expect(withFrameAncestors(csp, ['https://a.example', 'https://b.example'])).toBe(
      "default-src 'self';frame-ancestors 'self' https://a.example https://b.example;object-src 'none'",
    );
    expect(withFrameAncestors(csp, [])).toBe(csp);
  });

  it('escapes the snippet’s attributes', () => {
    expect(embedSnippet('https://app.example', 'term-1', 'a"b')).toBe(
      '<script src="https://app.example/embed/registration.js" data-form="term-1" data-authhash="a&quot;b" async></script>',
    );
  });
});

describe('registration form keys and questions', () => {
  it.each([
    ['Term 1 Classes!', 'term-1-classes'],
    ['  Ninja  kids — Term 2 ', 'ninja-kids-term-2'],
    ['Café Gym', 'cafe-gym'],
    ['!!!', ''],
  ])('%j → %j', (name, key) => {
    expect(slugify(name)).toBe(key);
  });

  it('reads custom questions one per line, a trailing * making one required', () => {
    expect(customQuestionLines('Shoe size *\n\n  Favourite apparatus?  \n*\n')).toEqual([
      { label: 'Shoe size', required: true },
      { label: 'Favourite apparatus?', required: false },
    ]);
    expect(customQuestionLines(null)).toEqual([]);
  });
});
