import { fail } from './errors.js';

/**
 * Tokens of the query text. `pos`/`len` are UTF-16 offsets, for error carets.
 * A word runs until whitespace or a special character and may hold `:`, so
 * `category.id:medtop:04000000` is one word that the parser splits at its first colon.
 */
export type Token =
  | {
      readonly type: 'lparen' | 'rparen' | 'lblock' | 'rblock' | 'lbracket' | 'rbracket' | 'eof';
      readonly pos: number;
      readonly len: number;
    }
  | {
      readonly type: 'cmp';
      readonly op: 'gt' | 'gte' | 'lt' | 'lte';
      readonly pos: number;
      readonly len: number;
    }
  | { readonly type: 'word'; readonly text: string; readonly pos: number; readonly len: number }
  | {
      readonly type: 'phrase';
      readonly text: string;
      /** The proximity after `~`, when given. */
      readonly slop: number | undefined;
      readonly pos: number;
      readonly len: number;
    };

const SPECIAL = new Set(['(', ')', '[', ']', '{', '}', '"', '~', '^', '\\', '<', '>']);

function isSpace(code: number): boolean {
  if (code === 32 || (code >= 9 && code <= 13)) return true;
  return code > 127 && /\s/.test(String.fromCharCode(code));
}

/** Whether `text` lexes as one word (no space, no special character). */
export function isWordText(text: string): boolean {
  if (text === '') return false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (SPECIAL.has(c) || isSpace(c.charCodeAt(0))) return false;
  }
  return true;
}

/** Pulls tokens on demand, so the leftmost problem is the one reported. */
export class Lexer {
  private at = 0;
  private ahead: Token | undefined;

  constructor(private readonly text: string) {}

  peek(): Token {
    this.ahead ??= this.scan();
    return this.ahead;
  }

  next(): Token {
    const token = this.peek();
    this.ahead = undefined;
    return token;
  }

  private scan(): Token {
    const text = this.text;
    while (this.at < text.length && isSpace(text.charCodeAt(this.at))) this.at++;
    const pos = this.at;
    if (pos >= text.length) return { type: 'eof', pos: text.length, len: 0 };
    const ch = text[pos];
    const next = text[pos + 1];
    switch (ch) {
      case '(':
        this.at++;
        return { type: 'lparen', pos, len: 1 };
      case ')':
        this.at++;
        return { type: 'rparen', pos, len: 1 };
      case '[':
        this.at++;
        return { type: 'lbracket', pos, len: 1 };
      case ']':
        this.at++;
        return { type: 'rbracket', pos, len: 1 };
      case '{':
        if (next !== '{') {
          fail(
            'ER0701',
            'a single "{"',
            pos,
            1,
            'entity blocks are written {{ … }}; ranges are [a TO b]',
          );
        }
        this.at += 2;
        return { type: 'lblock', pos, len: 2 };
      case '}':
        if (next !== '}')
          fail('ER0701', 'a single "}"', pos, 1, 'entity blocks are written {{ … }}');
        this.at += 2;
        return { type: 'rblock', pos, len: 2 };
      case '<':
      case '>': {
        const eq = next === '=';
        this.at += eq ? 2 : 1;
        const op = ch === '<' ? (eq ? 'lte' : 'lt') : eq ? 'gte' : 'gt';
        return { type: 'cmp', op, pos, len: eq ? 2 : 1 };
      }
      case '"':
        return this.phrase(pos);
      case '~':
        return fail(
          'ER0710',
          'fuzzy search (~ after a term) is not supported',
          pos,
          1,
          'proximity is "two words"~N',
        );
      case '^':
        return fail('ER0710', 'boost (^) is not supported', pos, 1);
      case '\\':
        return fail('ER0701', 'a backslash outside quotes', pos, 1, 'quote the value: "a\\\\b"');
      default:
        return this.word(pos);
    }
  }

  private word(pos: number): Token {
    const text = this.text;
    let end = pos;
    while (end < text.length) {
      const c = text[end] as string;
      if (SPECIAL.has(c) || isSpace(c.charCodeAt(0))) break;
      end++;
    }
    this.at = end;
    return { type: 'word', text: text.slice(pos, end), pos, len: end - pos };
  }

  private phrase(pos: number): Token {
    const text = this.text;
    let value = '';
    let i = pos + 1;
    let start = i;
    for (;;) {
      if (i >= text.length)
        fail('ER0701', 'an unclosed quote', pos, text.length - pos, 'close it with "');
      const c = text[i];
      if (c === '"') break;
      if (c === '\\') {
        const escaped = text[i + 1];
        if (escaped !== '"' && escaped !== '\\') {
          fail(
            'ER0701',
            'an unknown escape in quotes',
            i,
            Math.min(2, text.length - i),
            'only \\" and \\\\ are escapes',
          );
        }
        value += text.slice(start, i) + escaped;
        i += 2;
        start = i;
        continue;
      }
      i++;
    }
    value += text.slice(start, i);
    i++;
    let slop: number | undefined;
    if (text[i] === '~') {
      let j = i + 1;
      while (j < text.length && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
      if (j === i + 1)
        fail('ER0701', 'a "~" without a number after the phrase', i, 1, 'write "two words"~3');
      slop = Number(text.slice(i + 1, j));
      if (!Number.isSafeInteger(slop)) fail('ER0703', 'a proximity that is too large', i, j - i);
      i = j;
    }
    this.at = i;
    return { type: 'phrase', text: value, slop, pos, len: i - pos };
  }
}
