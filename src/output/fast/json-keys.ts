/**
 * The keys of a tape's objects (json-tape.ts) as JSON.parse would see them:
 * two keys alike (the last one's value wins, at the first one's place) and
 * keys that are array indexes (a parsed object lists them first). Either
 * means JSON.stringify would not write the object's bytes as they are
 * (tape-text.ts). Raw bytes are compared: a key with an escape
 * JSON.stringify writes otherwise is IRREGULAR and never gets here, and
 * JSON.stringify's own escapes spell each key one way only.
 */
import { END, KIND, NEXT, OBJECT, START } from './json-tape.js';

/** A key that JSON.parse would order first: an array index (0 to 2^32 - 2, no leading zero). */
export function isIndexKey(b: Uint8Array, start: number, end: number): boolean {
  const length = end - start;
  if (length === 0 || length > 10) return false;
  if (b[start] === 0x30) return length === 1;
  let n = 0;
  for (let i = start; i < end; i++) {
    const c = b[i]!;
    if (c < 0x30 || c > 0x39) return false;
    n = n * 10 + (c - 0x30);
  }
  return n < 4294967295;
}

function sameKey(b: Uint8Array, tape: Int32Array, k1: number, k2: number): boolean {
  const s1 = tape[k1 + START]!;
  const s2 = tape[k2 + START]!;
  const length = tape[k1 + END]! - s1;
  if (tape[k2 + END]! - s2 !== length) return false;
  for (let i = 0; i < length; i++) if (b[s1 + i] !== b[s2 + i]) return false;
  return true;
}

/** Objects with more keys than this are checked through a hash table, not pair by pair. */
const FEW_KEYS = 8;
/** The table: per slot, the key's tape entry + 1 while its stamp is the object's. */
let keySlots = new Int32Array(256);
let keyStamps = new Int32Array(256);
let stamp = 0;

/** FNV-1a over a key's length, first 16 and last byte: keys are short and differ early. */
function keyHash(b: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5 ^ (end - start);
  const stop = Math.min(end, start + 16);
  for (let i = start; i < stop; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
  return end > start ? Math.imul(h ^ b[end - 1]!, 0x01000193) : h;
}

/** True when the object at entry x has two keys alike. */
export function keysAlike(b: Uint8Array, tape: Int32Array, x: number): boolean {
  const members = tape[x + NEXT]!;
  let count = 0;
  for (let k = x + 4; k < members; k = tape[k + 4 + NEXT]!) count++;
  if (count <= FEW_KEYS) {
    for (let k = x + 4; k < members; k = tape[k + 4 + NEXT]!) {
      for (let p = x + 4; p < k; p = tape[p + 4 + NEXT]!) if (sameKey(b, tape, p, k)) return true;
    }
    return false;
  }
  let size = keySlots.length;
  while (size < count * 2) size *= 2;
  if (size !== keySlots.length) {
    keySlots = new Int32Array(size);
    keyStamps = new Int32Array(size);
  }
  stamp++;
  const mask = size - 1;
  for (let k = x + 4; k < members; k = tape[k + 4 + NEXT]!) {
    let i = keyHash(b, tape[k + START]!, tape[k + END]!) & mask;
    for (;;) {
      if (keyStamps[i] !== stamp) {
        keyStamps[i] = stamp;
        keySlots[i] = k + 1;
        break;
      }
      if (sameKey(b, tape, keySlots[i]! - 1, k)) return true;
      i = (i + 1) & mask;
    }
  }
  return false;
}

/** True when an object in the container at entry e has two keys alike. */
export function hasKeysAlike(b: Uint8Array, tape: Int32Array, e: number): boolean {
  const last = tape[e + NEXT]!;
  for (let x = e; x < last; x += 4) {
    if ((tape[x]! & KIND) === OBJECT && keysAlike(b, tape, x)) return true;
  }
  return false;
}
