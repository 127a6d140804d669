/**
 * Words and figures the SPA shows and the server draws into a public page's first HTML
 * (apps/server/src/features/public-pages) alike, so both show the same. No zod: the public pages'
 * bundle imports this.
 */

/** SPEC.md point 9: pickers and pages show DD/MM/YYYY. */
export function formatDate(date: string): string {
  const [year, month, day] = date.split('-');
  return year && month && day ? `${day}/${month}/${year}` : date;
}

/**
 * SPEC.md point 5: the age range shows only when age_start > 0 or age_end < 100 (100 means no
 * upper limit). Null when it should not show.
 */
export function ageRangeText(ageStart: number, ageEnd: number): string | null {
  const hasMin = ageStart > 0;
  const hasMax = ageEnd < 100;
  if (hasMin && hasMax) return `Ages ${ageStart}–${ageEnd}`;
  if (hasMin) return `Ages ${ageStart}+`;
  if (hasMax) return `Ages up to ${ageEnd}`;
  return null;
}

/** The company's initials, drawn in place of a logo it has not uploaded. */
export function initials(name: string): string {
  const letters = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? '');
  return letters.join('') || 'T';
}
