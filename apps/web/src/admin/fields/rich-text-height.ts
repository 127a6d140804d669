/** SPEC.md point 9: the rich text editor's content area is 400px high. */
export const RICH_TEXT_HEIGHT_PX = 400;
