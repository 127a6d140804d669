import sanitizeHtml from 'sanitize-html';

/**
 * The only way staff-written HTML (event descriptions, waivers, terms, mail bodies) is stored:
 * formatting, links and images survive; scripts, event handlers, styles and javascript: URLs do not.
 */
export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [
      'p',
      'br',
      'strong',
      'b',
      'em',
      'i',
      'u',
      's',
      'ul',
      'ol',
      'li',
      'a',
      'h1',
      'h2',
      'h3',
      'h4',
      'blockquote',
      'hr',
      'img',
      'table',
      'thead',
      'tbody',
      'tr',
      'th',
      'td',
      'span',
      'div',
    ],
    allowedAttributes: { a: ['href', 'target', 'rel'], img: ['src', 'alt', 'width', 'height'] },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['http', 'https'] },
    allowProtocolRelative: false,
    transformTags: {
      a: (tagName, attribs) => ({
        tagName,
        attribs: { ...attribs, rel: 'noopener noreferrer', target: '_blank' },
      }),
    },
  });
}

/** Plain text for places that cannot show HTML (list cells, mail subjects). */
export function htmlToText(html: string): string {
  // sanitize-html leaves text entity-encoded; plain text wants the characters themselves.
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} })
    .replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => TEXT_ENTITIES[name]!)
    .replace(/\s+/g, ' ')
    .trim();
}
const TEXT_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

/** Plain text that keeps paragraphs (blank lines between blocks): mail bodies, PDFs. */
export function htmlToParagraphs(html: string): string {
  return html
    .split(/<\/(?:p|li|h[1-6]|div|blockquote)>|<br\s*\/?>/i)
    .map((part) => htmlToText(part))
    .filter(Boolean)
    .join('\n\n');
}
