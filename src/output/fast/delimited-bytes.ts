/**
 * Convert's byte writer for CSV and TSV: a line of JSON Lines goes from its
 * UTF-8 bytes to its row's bytes without JSON.parse, without a decoded
 * string, without a record object or a cell (tape-record.ts reads the
 * values; tape-text.ts makes their text). Each cell is the text the record
 * path writes (flatten.ts's derivations; csv.ts's quoting or tsv.ts's
 * escapes, after the formula guard of text.ts), byte for byte: a test
 * checks both ways on generated records in many spellings.
 *
 * A string without escapes in the input can hold no quote, line end, tab
 * or backslash, so it is written from the input as it is, once the comma,
 * the byte-order mark and the spaces at its ends (CSV) are looked for.
 * Anything else that makes text (escapes, JSON text, lists) is made in a
 * scratch buffer first and written from there.
 *
 * Where the time went before (a worker, API-shaped articles; bench/README.md):
 * JSON.parse and UTF-8 decoding ~35 %, JSON.stringify of the nested columns
 * ~15 %, CSV quoting ~15 %, UTF-8 encoding ~12 %, collecting ~8 %.
 */
import type { Column } from '../columns.js';
import {
  ARRAY,
  END,
  ESCAPED,
  FALSE,
  KIND,
  NUMBER,
  OBJECT,
  START,
  STRING,
  TRUE,
  indexOf,
} from './json-tape.js';
import { TapeRecord, unreadablePath } from './tape-record.js';
import { TextOut, asIs, canonicalNumber, json, stringText } from './tape-text.js';

/** A line's bytes into `out` (appended); false when it is left to the record path (nothing written). */
export type LineWriter = (
  bytes: Uint8Array,
  from: number,
  to: number,
  topLevel: boolean,
  out: TextOut,
) => boolean;

const QUOTE = 0x22;
const COMMA = 0x2c;
const SPACE = 0x20;
const CR = 0x0d;
const LF = 0x0a;
const TAB = 0x09;
const BACKSLASH = 0x5c;
const APOSTROPHE = 0x27;

enum Derive {
  Value,
  Json,
  Names,
  Join,
}

const DERIVE = { value: Derive.Value, json: Derive.Json, names: Derive.Names, join: Derive.Join };

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= 0x30 && c <= 0x39;
}

/** text.ts's PLAIN_NUMBER on bytes: `^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$`. */
function plainNumber(b: Uint8Array, start: number, end: number): boolean {
  let i = start;
  if (b[i] === 0x2b || b[i] === 0x2d) i++;
  const whole = i;
  while (i < end && isDigit(b[i])) i++;
  let digits = i - whole;
  if (i < end && b[i] === 0x2e) {
    i++;
    const fraction = i;
    while (i < end && isDigit(b[i])) i++;
    digits += i - fraction;
  }
  if (digits === 0) return false;
  if (i < end && (b[i] === 0x65 || b[i] === 0x45)) {
    i++;
    if (i < end && (b[i] === 0x2b || b[i] === 0x2d)) i++;
    const exponent = i;
    while (i < end && isDigit(b[i])) i++;
    if (i === exponent) return false;
  }
  return i === end;
}

/** text.ts's neutraliseFormula: true when the text gets a `'` before it. */
function isFormula(b: Uint8Array, start: number, end: number): boolean {
  if (start === end) return false;
  const c = b[start]!;
  if (c !== 0x3d && c !== 0x2b && c !== 0x2d && c !== 0x40 && c !== TAB && c !== CR) return false;
  return !plainNumber(b, start, end);
}

/** True when the text holds a byte-order mark (U+FEFF: EF BB BF). */
function hasBom(b: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i + 2 < end; i++) {
    if (b[i] === 0xef && b[i + 1] === 0xbb && b[i + 2] === 0xbf) return true;
  }
  return false;
}

/**
 * The next byte 0xEF (the first of a BOM's) in a chunk at or after a
 * position: memchr, remembered while the positions asked for grow, as the
 * tape remembers backslashes. Rare in any text, so most strings are cleared
 * of a BOM without a look at their bytes.
 */
export class NextEf {
  private bytes: Uint8Array | undefined;
  private at = -1;

  in(b: Uint8Array, from: number): number {
    if (b !== this.bytes) {
      this.bytes = b;
      this.at = -1;
    }
    if (this.at < from) {
      this.at = indexOf.call(b, 0xef, from);
      if (this.at < 0) this.at = b.length;
    }
    return this.at;
  }
}

/** Short texts are looked through byte by byte; longer ones with memchr (a call costs ~30 bytes' worth). */
const SHORT = 32;

/**
 * Writes the text b[start, end) as a cell into `out`: `plain` when it is a
 * string from the input chunk without escapes (no quote, CR or LF in it).
 */
type TextCell = (
  b: Uint8Array,
  start: number,
  end: number,
  plain: boolean,
  guard: boolean,
  out: TextOut,
  ef: NextEf,
) => void;

/** csv.ts's `csvField(guard(s))`: quoted for a comma, quote, CR, LF or BOM, or a space at an end. */
const csvText: TextCell = (b, start, end, plain, guard, out, ef) => {
  const formula = guard && isFormula(b, start, end);
  let quote = end > start && (b[end - 1] === SPACE || (!formula && b[start] === SPACE));
  let quotes = false;
  if (plain) {
    if (!quote && end - start <= SHORT) {
      for (let i = start; i < end; i++) {
        if (b[i] === COMMA) {
          quote = true;
          break;
        }
      }
    } else if (!quote) {
      // The input is JSON: a comma comes soon after the string, if not in it.
      const comma = indexOf.call(b, COMMA, start);
      quote = comma >= 0 && comma < end;
    }
    if (!quote && ef.in(b, start) < end) quote = hasBom(b, start, end);
  } else {
    let i = start;
    if (!quote) {
      for (; i < end; i++) {
        const c = b[i];
        if (c === QUOTE) {
          quotes = quote = true;
          break;
        }
        if (c === COMMA || c === CR || c === LF) {
          quote = true;
          break;
        }
      }
    }
    if (!quotes) {
      for (; i < end; i++) {
        if (b[i] === QUOTE) {
          quotes = true;
          break;
        }
      }
    }
    if (!quote) quote = hasBom(b, start, end);
  }
  out.ensure(2 * (end - start) + 3);
  const bytes = out.bytes;
  let o = out.length;
  if (quote) bytes[o++] = QUOTE;
  if (formula) bytes[o++] = APOSTROPHE;
  if (!quotes) {
    out.length = o;
    out.copy(b, start, end);
    o = out.length;
  } else {
    for (let i = start; i < end; i++) {
      const c = b[i]!;
      bytes[o++] = c;
      if (c === QUOTE) bytes[o++] = QUOTE;
    }
  }
  if (quote) bytes[o++] = QUOTE;
  out.length = o;
};

const TSV_ESCAPE = new Uint8Array(256);
TSV_ESCAPE[TAB] = 0x74;
TSV_ESCAPE[LF] = 0x6e;
TSV_ESCAPE[CR] = 0x72;
TSV_ESCAPE[BACKSLASH] = BACKSLASH;

/** tsv.ts's `escapeTsv(guard(s))`: tab, LF, CR and backslash as `\t`, `\n`, `\r`, `\\`. */
const tsvText: TextCell = (b, start, end, plain, guard, out) => {
  const formula = guard && isFormula(b, start, end);
  out.ensure(2 * (end - start) + 1);
  if (formula) out.bytes[out.length++] = APOSTROPHE;
  if (plain) {
    out.copy(b, start, end);
    return;
  }
  const bytes = out.bytes;
  let o = out.length;
  for (let i = start; i < end; i++) {
    const c = b[i]!;
    const e = TSV_ESCAPE[c]!;
    if (e === 0) bytes[o++] = c;
    else {
      bytes[o++] = BACKSLASH;
      bytes[o++] = e;
    }
  }
  out.length = o;
};

interface Plan {
  readonly derive: Derive;
  readonly slots: readonly number[];
}

export class DelimitedRows {
  private readonly scratch = new TextOut();
  private readonly ef = new NextEf();

  private constructor(
    private readonly record: TapeRecord,
    private readonly plans: readonly Plan[],
    private readonly separator: number,
    private readonly lineEnd: Uint8Array,
    private readonly textCell: TextCell,
    private readonly guard: boolean,
  ) {}

  /** A CSV or TSV byte writer for these columns; undefined when a path cannot be read from bytes. */
  static for(
    format: 'csv' | 'tsv',
    columns: readonly Column[],
    sanitize: boolean,
  ): DelimitedRows | undefined {
    const record = new TapeRecord();
    const plans: Plan[] = [];
    for (const column of columns) {
      const paths = [column.path, ...(column.alternatives ?? [])];
      if (paths.some(unreadablePath)) return undefined;
      plans.push({ derive: DERIVE[column.derive], slots: paths.map((p) => record.slotOf(p)) });
    }
    const csv = format === 'csv';
    return new DelimitedRows(
      record,
      plans,
      csv ? COMMA : TAB,
      new Uint8Array(csv ? [CR, LF] : [LF]),
      csv ? csvText : tsvText,
      sanitize,
    );
  }

  /** The row of the record on bytes[from, to) into `out`; false (nothing written) when it cannot. */
  readonly write: LineWriter = (bytes, from, to, topLevel, out) => {
    if (!this.record.read(bytes, from, to, topLevel)) return false;
    const start = out.length;
    const plans = this.plans;
    for (let i = 0; i < plans.length; i++) {
      if (i > 0) out.byte(this.separator);
      if (!this.cell(bytes, plans[i]!, out)) {
        out.length = start;
        return false;
      }
    }
    out.copy(this.lineEnd, 0, this.lineEnd.length);
    return true;
  };

  /** Writes the plan's cell; false to leave the row to the record path. */
  private cell(b: Uint8Array, plan: Plan, out: TextOut): boolean {
    const e = this.record.valueOf(plan.slots);
    if (e < 0) return true; // null or missing: an empty cell
    const tape = this.record.tape.tape;
    const kind = tape[e]! & KIND;
    const start = tape[e + START]!;
    const end = tape[e + END]!;
    const scratch = this.scratch;
    switch (plan.derive) {
      case Derive.Json:
        return this.jsonCell(b, e, out);
      case Derive.Names:
      case Derive.Join:
        if (kind === ARRAY) {
          scratch.length = 0;
          if (!this.record.list(b, e, plan.derive === Derive.Names, scratch)) return false;
          this.textCell(scratch.bytes, 0, scratch.length, false, this.guard, out, this.ef);
          return true;
        }
        break;
      case Derive.Value:
        break;
    }
    switch (kind) {
      case STRING:
        if ((tape[e]! & ESCAPED) === 0) {
          this.textCell(b, start, end, true, this.guard, out, this.ef);
          return true;
        }
        scratch.length = 0;
        stringText(b, start, end, true, scratch);
        this.textCell(scratch.bytes, 0, scratch.length, false, this.guard, out, this.ef);
        return true;
      case NUMBER:
        // String(n), unquoted and unguarded; not finite (1e400): an empty cell.
        if (canonicalNumber(b, start, end)) out.copy(b, start, end);
        else {
          let text = '';
          for (let i = start; i < end; i++) text += String.fromCharCode(b[i]!);
          const n = Number(text);
          if (Number.isFinite(n)) out.ascii(String(n));
        }
        return true;
      case TRUE:
      case FALSE:
        out.copy(b, start, end);
        return true;
      case OBJECT:
      case ARRAY:
        return this.jsonCell(b, e, out);
    }
    return false;
  }

  /** A value as JSON text in a cell: its own bytes where they are that text, else made again. */
  private jsonCell(b: Uint8Array, e: number, out: TextOut): boolean {
    const tape = this.record.tape.tape;
    if (asIs(b, tape, e)) {
      this.textCell(b, tape[e + START]!, tape[e + END]!, false, this.guard, out, this.ef);
      return true;
    }
    const scratch = this.scratch;
    scratch.length = 0;
    if (!json(b, tape, e, scratch)) return false;
    this.textCell(scratch.bytes, 0, scratch.length, false, this.guard, out, this.ef);
    return true;
  }
}
