/**
 * Title matching shared by the flat filters, the query language and highlighting,
 * so `title=…`, `query=title:…` and the highlighted words always agree.
 */

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;
/** WORD for ASCII text (where letters and digits are [a-z0-9] once lower-cased): several times faster. */
const ASCII_WORD = /[a-z0-9]+(?:'[a-z0-9]+)*/g;
const NOT_ASCII = /[^\x00-\x7f]/;

/** Lower-cased words of a text, in order (apostrophes kept inside words: "Musk's"). */
export function tokenize(text: string): string[] {
  const lower = text.toLowerCase();
  return lower.match(NOT_ASCII.test(lower) ? WORD : ASCII_WORD) ?? [];
}

/**
 * Whether `words` occur in `tokens[from..to)` in order, with at most `slop`
 * other words in between in total (Lucene's proximity for ordered phrases;
 * 0 = exact phrase). Generic so the index's integer title column (faster to
 * compare, together in memory) and plain string tokens share one rule.
 */
export function hasPhraseIn<T>(
  tokens: ArrayLike<T>,
  from: number,
  to: number,
  words: readonly T[],
  slop: number,
): boolean {
  const first = words[0];
  if (first === undefined) return true;
  for (let i = from; i < to; i++) {
    if (tokens[i] !== first) continue;
    let pos = i;
    let gaps = 0;
    let ok = true;
    for (let w = 1; w < words.length; w++) {
      let next = pos + 1;
      while (next < to && tokens[next] !== words[w]) next++;
      if (next >= to) {
        ok = false;
        break;
      }
      gaps += next - pos - 1;
      if (gaps > slop) {
        ok = false;
        break;
      }
      pos = next;
    }
    if (ok) return true;
  }
  return false;
}

/** hasPhraseIn over a whole token list. */
export function hasPhrase(
  tokens: readonly string[],
  words: readonly string[],
  slop: number,
): boolean {
  return hasPhraseIn(tokens, 0, tokens.length, words, slop);
}

/** One part of a `title` value: a bare word, or a quoted phrase with its proximity. */
export type TitleTerm =
  | { kind: 'word'; word: string }
  | { kind: 'phrase'; words: string[]; slop: number };

const PHRASE = /"([^"]*)"(?:~(\d+))?/g;

/**
 * `title` text → terms, all of which must match: `"climate change"~2 policy`
 * is the phrase within 2 words plus the word "policy".
 */
export function parseTitleTerms(text: string): TitleTerm[] {
  const terms: TitleTerm[] = [];
  const rest = text.replace(PHRASE, (_m, phrase: string, slop: string | undefined) => {
    const words = tokenize(phrase);
    if (words.length === 1 && words[0] !== undefined) terms.push({ kind: 'word', word: words[0] });
    else if (words.length > 1)
      terms.push({ kind: 'phrase', words, slop: slop === undefined ? 0 : Number(slop) });
    return ' ';
  });
  for (const word of tokenize(rest)) terms.push({ kind: 'word', word });
  return terms;
}

export function matchesTitleTerms(tokens: readonly string[], terms: readonly TitleTerm[]): boolean {
  for (const term of terms) {
    if (term.kind === 'word') {
      if (!tokens.includes(term.word)) return false;
    } else if (!hasPhrase(tokens, term.words, term.slop)) return false;
  }
  return terms.length > 0;
}

/**
 * `title_pattern`: the service does not document its syntax; the mock reads it as
 * a case-insensitive regular expression, and as a literal substring when it is not
 * a valid one (so a pattern never turns into an error).
 */
export function compilePattern(pattern: string): (title: string) => boolean {
  try {
    const re = new RegExp(pattern, 'iu');
    return (title) => re.test(title);
  } catch {
    const needle = pattern.toLowerCase();
    return (title) => title.toLowerCase().includes(needle);
  }
}

/** Words to highlight for a text filter value (phrases contribute their words). */
export function highlightWords(text: string): string[] {
  return parseTitleTerms(text).flatMap((t) => (t.kind === 'word' ? [t.word] : t.words));
}
