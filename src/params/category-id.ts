/**
 * The two spellings of an IPTC media-topic id. The search filter's examples use
 * `medtop:04000000`; the suggest endpoint, article `categories[].id` and the
 * category feed's path use the bare number `4000000`. A suggestion "resolves to
 * category.id" (specification), so both must be accepted: every value is
 * normalised to the padded slug before it is checked, sent or matched.
 */
const BARE = /^\d{1,8}$/;
const SLUG = /^medtop:(\d{1,8})$/i;

/** `4000000`, `04000000`, `medtop:4000000` → `medtop:04000000`; anything else unchanged. */
export function normalizeCategoryId(value: string): string {
  const digits = BARE.test(value) ? value : SLUG.exec(value)?.[1];
  return digits === undefined ? value : `medtop:${digits.padStart(8, '0')}`;
}

/** The number an article or a suggestion carries for a normalised slug (`medtop:04000000` → 4000000). */
export function categoryNumber(slug: string): number | undefined {
  const digits = SLUG.exec(slug)?.[1];
  return digits === undefined ? undefined : Number(digits);
}
