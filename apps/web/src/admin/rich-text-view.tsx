import { Typography } from '@mantine/core';
import { createElement, type ReactNode } from 'react';

/** The markup the editor writes; anything else is dropped and only its text kept. */
const ALLOWED = new Set([
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'code',
  'pre',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'blockquote',
  'hr',
  'a',
]);
const VOID = new Set(['br', 'hr']);
/** Elements whose content is code or embedded documents, not text to show. */
const DROP = new Set(['script', 'style', 'template', 'noscript', 'iframe', 'object', 'svg', 'math']);

function safeHref(href: string | null): string | undefined {
  if (!href) return undefined;
  try {
    const url = new URL(href, window.location.origin);
    return ['http:', 'https:', 'mailto:', 'tel:'].includes(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function toReact(node: Node, key: string): ReactNode {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const element = node as Element;
  const tag = element.tagName.toLowerCase();
  if (DROP.has(tag)) return null;
  const children = Array.from(element.childNodes, (child, i) => toReact(child, `${key}.${i}`));
  if (!ALLOWED.has(tag)) return children;
  if (VOID.has(tag)) return createElement(tag, { key });
  if (tag === 'a') {
    const href = safeHref(element.getAttribute('href'));
    return href
      ? createElement('a', { key, href, target: '_blank', rel: 'noopener noreferrer' }, children)
      : children;
  }
  return createElement(tag, { key }, children);
}

/**
 * Stored rich text, shown without ever injecting HTML: the markup is parsed (never run), and only
 * the editor's own elements are rebuilt as React elements, with no attributes but safe link targets.
 */
export function RichTextView({ html }: { html: string }) {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return <Typography>{Array.from(doc.body.childNodes, (child, i) => toReact(child, String(i)))}</Typography>;
}
