/**
 * Names the browser and the server share that every page needs, kept free of zod: the SPA's entry
 * imports them, and a module with schemas would bring zod into every page's first load (issue 19).
 * http.ts and registration-forms.ts re-export them.
 */

/** Header on which the server hands the SPA its session token (SPEC.md point 4: "set on any response carrying a token header"). */
export const TOKEN_HEADER = 'x-auth-token';

/** The message the embedded registration page posts to its parent window with its height. */
export const EMBED_RESIZE_MESSAGE = 'tumble:registration-height';
