/** Table and column names in SQL: quoted, so that a field's name is never read as a keyword. Both engines quote alike. */

export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** `schema.table` or `table`, quoted part by part. */
export function qualified(name: string): string {
  return name.split('.').map(ident).join('.');
}

/** The schema a table name names, or undefined for the default one. */
export function schemaOf(name: string): string | undefined {
  const parts = name.split('.');
  return parts.length === 2 ? parts[0] : undefined;
}

/** The bare table name, without its schema. */
export function bareName(name: string): string {
  return name.split('.').at(-1) as string;
}
