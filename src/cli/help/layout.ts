/**
 * How a `--help` text fits the terminal: the layout of a help model (what
 * format.ts reads off a commander command: usage, descriptions, options by
 * group, examples, subcommands) at a width. Plain data in, text out, and no
 * imports: bin/news.js lays out `news COMMAND --help` from a model written at
 * build time (fast.ts) with this very code, without loading commander.
 */

/** A term and its description, in two columns. */
export type Row = readonly [term: string, description: string];

/**
 * One part of a help text, in order; each is followed by a blank line. A
 * titled part with nothing in it is left out, title and all.
 */
export type HelpBlock =
  /** A line as it is (the usage line). */
  | { readonly line: string }
  /** A paragraph, wrapped. */
  | { readonly text: string }
  /** Terms and their descriptions. */
  | { readonly title: string; readonly rows: readonly Row[] }
  /** Terms in one wrapped paragraph: the short form of a list of flags. */
  | { readonly title: string; readonly terms: readonly string[] }
  /** Example command lines, wrapped so they paste as they read. */
  | { readonly title: string; readonly examples: readonly string[] }
  /** `news --help`'s commands: a group's title, then its names as a paragraph. */
  | { readonly title: string; readonly groups: readonly (readonly [string, readonly string[]])[] };

/** What a `--help` says: format.ts makes it, write-model.ts writes it to dist/ as JSON. */
export type HelpModel = readonly HelpBlock[];

/** A word longer than the width, cut after its `|` or `,` where it can be, else anywhere. */
function pieces(word: string, width: number): string[] {
  if (word.length <= width) return [word];
  const out: string[] = [];
  let rest = word;
  while (rest.length > width) {
    const cut = Math.max(rest.lastIndexOf('|', width - 1), rest.lastIndexOf(',', width - 1));
    const at = cut > 0 ? cut + 1 : width;
    out.push(rest.slice(0, at));
    rest = rest.slice(at);
  }
  return [...out, rest];
}

/** Greedy word wrap to `width` columns. */
export function wrap(text: string, width: number): string[] {
  return text.split('\n').flatMap((paragraph) =>
    fill(
      paragraph.split(/ +/).flatMap((w) => pieces(w, width)),
      width,
    ),
  );
}

/** Shell words: a space inside `'…'` or `"…"` does not split. */
function shellWords(text: string): string[] {
  return text.match(/(?:[^\s'"]+|'[^']*'|"(?:[^"\\]|\\.)*")+|['"]\S*/g) ?? [];
}

/**
 * An example command that pastes as it reads: wrapped only between shell
 * words, each line but the last ending in ` \` (a line continuation), and
 * before a flag or a pipe where it can be, so a flag keeps its value (`-f
 * csv`); a flag whose value is too long for a line is broken between its
 * words, never inside quotes. A word longer than a line stays whole.
 */
export function wrapExample(text: string, width: number): string[] {
  const units: string[][] = [];
  for (const word of shellWords(text)) {
    const last = units[units.length - 1];
    if (last !== undefined && !/^[-|]/.test(word)) last.push(word);
    else units.push([word]);
  }
  // Two columns kept for the continuation.
  const room = width - 2;
  const lines = fill(
    units.flatMap((u) => (u.join(' ').length <= room ? [u.join(' ')] : u)),
    room,
  );
  return lines.map((line, i) => (i < lines.length - 1 ? `${line} \\` : line));
}

/** Lines of whole pieces, each line at most `width` columns when the pieces allow. */
function fill(words: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  lines.push(line);
  return lines;
}

/** Two columns: terms, then descriptions wrapped beside them (or below, when narrow). */
export function formatItems(rows: readonly (readonly [string, string])[], width: number): string[] {
  if (rows.length === 0) return [];
  const termWidth = Math.min(30, Math.max(...rows.map(([t]) => t.length)));
  let column = 2 + termWidth + 2;
  if (width - column < 24) column = 6;
  const out: string[] = [];
  for (const [term, description] of rows) {
    const lines = description ? wrap(description, Math.max(20, width - column)) : [];
    const pad = ' '.repeat(column);
    if (column === 6 || term.length > termWidth) {
      out.push(`  ${term}`);
      out.push(...lines.map((l) => pad + l));
    } else {
      out.push(`  ${term.padEnd(termWidth)}  ${lines[0] ?? ''}`.trimEnd());
      out.push(...lines.slice(1).map((l) => pad + l));
    }
  }
  return out;
}

/** Terms in one wrapped paragraph: the short form of a list of flags. */
function paragraph(terms: readonly string[], width: number, indent = '  '): string[] {
  const lines: string[] = [];
  let line = '';
  for (const term of terms) {
    if (line !== '' && indent.length + line.length + 2 + term.length > width) {
      lines.push(indent + line);
      line = term;
    } else line = line === '' ? term : `${line}  ${term}`;
  }
  if (line !== '') lines.push(indent + line);
  return lines;
}

function section(title: string, lines: readonly string[]): string[] {
  return lines.length === 0 ? [] : [title, ...lines, ''];
}

function examples(title: string, list: readonly string[], width: number): string[] {
  return section(
    title,
    list.flatMap((e) =>
      // Continuation lines are indented 6, less for a long quoted word (the shell ignores it).
      wrapExample(`$ ${e}`, width - 6).map((l, i) =>
        i === 0 ? `  ${l}` : `${' '.repeat(Math.max(2, Math.min(6, width - l.length)))}${l}`,
      ),
    ),
  );
}

/** Each group's title, then its names as a paragraph beside it; an empty group is left out. */
function commandGroups(
  groups: readonly (readonly [string, readonly string[]])[],
  width: number,
): string[] {
  const titleWidth = Math.max(...groups.map(([title]) => title.length));
  const lines: string[] = [];
  for (const [title, names] of groups) {
    if (names.length === 0) continue;
    const body = paragraph(names, width - titleWidth - 4, '');
    lines.push(`  ${title.padEnd(titleWidth)}  ${body[0] ?? ''}`);
    for (const more of body.slice(1)) lines.push(`  ${' '.repeat(titleWidth)}  ${more}`);
  }
  return lines;
}

function layoutBlock(block: HelpBlock, width: number): string[] {
  if ('line' in block) return [block.line, ''];
  if ('text' in block) return [...wrap(block.text, width), ''];
  if ('rows' in block) return section(block.title, formatItems(block.rows, width));
  if ('terms' in block) return section(block.title, paragraph(block.terms, width));
  if ('examples' in block) return examples(block.title, block.examples, width);
  return section(block.title, commandGroups(block.groups, width));
}

/** The help text of `model` at `helpWidth` columns (40 at least), ending in one newline. */
export function layoutHelp(model: HelpModel, helpWidth: number): string {
  const width = Math.max(40, helpWidth);
  const lines = model.flatMap((block) => layoutBlock(block, width));
  while (lines.at(-1) === '') lines.pop();
  return `${lines.join('\n')}\n`;
}
