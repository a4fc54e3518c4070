import { GROUP_ORDER, GROUP_TITLES, flagName } from './registry.js';
import { SEARCH_PARAMS } from './search-params.js';
import { CODE_STANDARD } from './codes.js';
import { RELATIVE_DATE_FORMS } from './relative-dates.js';
import type { ParamDef } from './types.js';

/** A parameter's rules in one cell (also `news mcp`'s parameter reference). */
export function constraints(def: ParamDef): string {
  const parts: string[] = [];
  if (def.type === 'flag') parts.push('0 or 1 (bare flag = 1)');
  if (def.type === 'switch') parts.push('0, 1, true, false (bare flag = 1)');
  if (def.type === 'date')
    parts.push(
      `YYYY-MM-DD or ISO 8601, or relative (resolved once per run, UTC): ${RELATIVE_DATE_FORMS}`,
    );
  if (def.min !== undefined && def.max !== undefined) {
    parts.push(`${def.exclusiveMin ? `> ${def.min}` : def.min} to ${def.max}`);
  } else if (def.min !== undefined) {
    parts.push(`${def.exclusiveMin ? '>' : '≥'} ${def.min}`);
  }
  if (def.minLength !== undefined || def.maxLength !== undefined) {
    const each = def.list ? ' each' : '';
    parts.push(
      def.minLength === undefined
        ? `at most ${def.maxLength} characters${each}`
        : `${def.minLength} to ${def.maxLength} characters${each}`,
    );
  }
  if (def.list !== undefined) parts.push(`up to ${def.list} values`);
  if (def.enum && def.type === 'string')
    parts.push(`one of: ${def.enum.map((v) => `\`${v}\``).join(', ')}`);
  if (def.patternHint) parts.push(def.patternHint);
  if (def.codes) parts.push(`must exist: checked against the ${CODE_STANDARD[def.codes]} list`);
  if (def.noWildcard) parts.push('no wildcards');
  if (def.titleWindow) parts.push('31-day window (ER0110)');
  if (def.exactEntity) parts.push('exact entity name (`--resolve`)');
  if (def.code) parts.push(def.code);
  if (def.default !== undefined) parts.push(`default \`${def.default}\``);
  return parts.join('; ');
}

/** docs/PARAMETERS.md, generated from the table; a test fails when the file drifts. */
export function renderParameterReference(): string {
  const lines = [
    '# Parameter reference',
    '',
    '<!-- Generated from src/params/search-params.ts by `npm run docs`. Do not edit by hand. -->',
    '',
    'Every flag below is checked before anything is sent (exit 2, nothing spent).',
    '`--param NAME=VALUE` sends any of them under the API name.',
    '',
    `Dates also take relative forms (${RELATIVE_DATE_FORMS}), resolved once at the start of the run, in UTC:`,
    '`today` and `yesterday` to a day (an end date covers the whole day), the others to a date-time',
    'without milliseconds. `--dry-run` shows them resolved; `--state` remembers the query with the',
    'relative form, so the same cron line is the same query every time it runs.',
    '`--published-at-start -24h` and `--published-at-start=-24h` both work.',
    '',
    'Language and country codes must exist: each value is checked against ISO 639-1 (183 codes) or',
    'ISO 3166-1 alpha-2 (249 codes), case-insensitively, with a did-you-mean for the usual slips',
    '(`uk` → `gb`, `jp` → `ja`); shell completion offers the same lists. (The service, and the mock,',
    'silently drop a filter whose code does not exist: that is why the client refuses it.)',
    '',
  ];
  for (const group of GROUP_ORDER) {
    const defs = SEARCH_PARAMS.filter((d) => d.group === group);
    if (defs.length === 0) continue;
    lines.push(
      `## ${GROUP_TITLES[group]}`,
      '',
      '| flag | API name | type | constraints | meaning |',
      '|---|---|---|---|---|',
    );
    for (const def of defs) {
      const cells = [
        `\`--${flagName(def.name)}\``,
        `\`${def.name}\``,
        def.type,
        constraints(def),
        def.help,
      ];
      lines.push(`| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}
