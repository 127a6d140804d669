import { Typography, type TypographyProps } from '@mantine/core';

interface ServerHtmlProps extends Omit<TypographyProps, 'children' | 'dangerouslySetInnerHTML'> {
  /** HTML the server has already sanitized (event intro and description, payment terms). */
  html: string;
}

/**
 * Staff-written rich text. Safe to inject: the server stores these fields only through
 * `sanitizeRichText` (apps/server/src/platform/html.ts: an allow-list of formatting tags and
 * http/https/mailto/tel links; no scripts, event handlers, styles or javascript: URLs), so what
 * arrives here is already clean (ARCHITECTURE.md "Money, time, text"). Use this for those
 * server-sanitized fields only, never for text a visitor typed. Every use is listed, with the field
 * it shows, in apps/server/src/platform/resources/html-fields.int.test.ts, which writes hostile HTML
 * to each through the admin API and fails on a use it does not know.
 */
export function ServerHtml({ html, ...props }: ServerHtmlProps) {
  return (
    <Typography {...props}>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by the server on save, see above */}
      <div dangerouslySetInnerHTML={{ __html: html }} />
    </Typography>
  );
}
