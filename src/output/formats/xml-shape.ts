/**
 * Turns a JSON record into the object shape fast-xml-parser's XMLBuilder
 * writes: objects become child elements, arrays become a wrapper element with
 * one child per item (named by the singular of the wrapper), null becomes an
 * empty element with xsi:nil="true", and every text loses the characters
 * XML 1.0 forbids and is escaped here (the builder runs with
 * `processEntities: false`: one pass instead of five regular expressions).
 */
import { xmlText } from '../text.js';

export type XmlNode = string | { [key: string]: XmlNode | XmlNode[] };

const NAME_START = /^[A-Za-z_]/;
const NAME_BAD = /[^A-Za-z0-9_.-]/g;

/** A key made into a valid XML element name (`2024` → `_2024`, `a b` → `a_b`). */
export function elementName(key: string): string {
  const known = NAMES.get(key);
  if (known !== undefined) return known;
  const name = cleanName(key);
  if (NAMES.size < 10_000) NAMES.set(key, name);
  return name;
}

/** Element names by key: records repeat the same few dozen keys. */
const NAMES = new Map<string, string>();

function cleanName(key: string): string {
  const cleaned = key.replace(NAME_BAD, '_');
  return NAME_START.test(cleaned) ? cleaned : '_' + cleaned;
}

/** `entities` → `entity`, `categories` → `category`; anything else → `item`. */
export function itemName(wrapper: string): string {
  if (wrapper.endsWith('ies') && wrapper.length > 3) return wrapper.slice(0, -3) + 'y';
  if (wrapper.endsWith('s') && !wrapper.endsWith('ss') && wrapper.length > 1)
    return wrapper.slice(0, -1);
  return 'item';
}

const NIL = { '@_xsi:nil': 'true' };

export function toXmlNode(value: unknown, name: string): XmlNode {
  if (value === null || value === undefined) return NIL;
  if (typeof value === 'string') return xmlText(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
  if (Array.isArray(value)) {
    const child = itemName(name);
    return { [child]: value.map((v) => toXmlNode(v, child)) };
  }
  const out: { [key: string]: XmlNode | XmlNode[] } = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === undefined) continue;
    const key = elementName(k);
    out[key] = toXmlNode(v, key);
  }
  return out;
}
