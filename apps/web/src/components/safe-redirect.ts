/** Whitespace or a control character: never part of a path we link to, often part of a trick. */
function hasUnsafeCharacter(value: string): boolean {
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (code <= 0x20 || code === 0x7f || /\s/.test(char)) return true;
  }
  return false;
}

/**
 * A `redirect` query value we may follow: a path on this origin. Anything else ('//evil.test',
 * 'https://…', '/\\evil.test', 'javascript:…') is ignored so sign-in cannot become an open redirect.
 */
export function safeRedirect(value: string | null | undefined): string | undefined {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return undefined;
  if (hasUnsafeCharacter(value)) return undefined;
  try {
    const base = 'https://tumble.invalid';
    const url = new URL(value, base);
    return url.origin === base ? url.pathname + url.search + url.hash : undefined;
  } catch {
    return undefined;
  }
}
