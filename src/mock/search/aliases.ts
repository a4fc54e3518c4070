/**
 * Other names of an entity (`New York City`, `NYC` for New York; `Sao Paulo`
 * for São Paulo), carried in its metadata as one `|`-separated string because
 * the document's entity metadata holds scalar values. The exact-name check
 * (ER0218…) and the name filters accept them like the entity's own name.
 */
export function entityAliases(metadata: Readonly<Record<string, unknown>> | undefined): string[] {
  const raw = metadata?.['aliases'];
  if (typeof raw !== 'string') return [];
  return raw
    .split('|')
    .map((a) => a.trim())
    .filter((a) => a !== '');
}
