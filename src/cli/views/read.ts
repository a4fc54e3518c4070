/**
 * Defensive readers for server JSON: a view must draw whatever arrives (a
 * missing field, a null, a number as text) without throwing.
 */

export type Json = Record<string, unknown>;

export function obj(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Json)
    : undefined;
}

export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function str(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

export function num(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  return undefined;
}

/** `value.name` when it is an object with a name, else the value as text. */
export function label(value: unknown): string | undefined {
  const o = obj(value);
  return o ? (str(o['name']) ?? str(o['id'])) : str(value);
}
