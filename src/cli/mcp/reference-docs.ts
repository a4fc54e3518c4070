/**
 * The text of the reference resources, made from the project's own sources
 * when read, so they cannot drift from what the server checks: the query
 * language (`news help query` and the field table of `news query fields`),
 * the record fields `fields` picks, and the parameter reference
 * (docs/PARAMETERS.md's generator, plus each tool's own parameters).
 */
import {
  ARTICLE_COLUMNS,
  COMPANY_COLUMNS,
  type Column,
  JOURNALIST_COLUMNS,
  PERSON_COLUMNS,
} from '../../output/columns.js';
import { queryFields } from '../../params/query/fields.js';
import { constraints, renderParameterReference } from '../../params/reference.js';
import { SEARCH_PARAMS } from '../../params/search-params.js';
import { query as queryTopic } from '../help/topics.js';
import { ARTICLE_FIELDS, type ToolBinding } from './tools.js';

const cell = (text: string) => text.replace(/\|/g, '\\|');

export function queryLanguageText(): string {
  const rows = queryFields().map((f) => {
    const where = f.inEntityBlock
      ? f.outsideEntityBlock
        ? 'anywhere'
        : 'inside {{ }} only'
      : 'outside {{ }}';
    return `| ${f.name} | ${f.type} | ${where} | ${cell(f.values?.join(', ') ?? '')} |`;
  });
  return [
    '# The query language (the `query` argument)',
    '',
    '```',
    ...queryTopic(),
    '```',
    '',
    'A query that does not parse is refused before anything is sent, with its ER07xx code and the offset of the fault.',
    '',
    '## Fields',
    '',
    '| field | type | where | values |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

function columns(title: string, list: readonly Column[]): string[] {
  return [`## ${title}`, '', list.map((c) => `\`${c.name}\` (${c.type})`).join(', '), ''];
}

export function fieldsText(): string {
  return [
    '# Record fields (the `fields` argument)',
    '',
    '`fields` takes dotted paths of a record, in the order wanted: `["id", "title", "source.domain"]`.',
    `Article tools return ${ARTICLE_FIELDS.map((f) => `\`${f}\``).join(', ')} by default; other records come whole but for \`body\` and \`body_html\`. Without \`fields\`, a description is cut to 300 characters.`,
    'A whole object works too (`source`, `sentiment`, `entities`). The tabular columns of each record kind follow; any other dotted path of a record is accepted as well, and a name that matches nothing is refused with the nearest names.',
    '',
    ...columns('Articles', ARTICLE_COLUMNS),
    ...columns('People', PERSON_COLUMNS),
    ...columns('Companies', COMPANY_COLUMNS),
    ...columns('Journalists', JOURNALIST_COLUMNS),
  ].join('\n');
}

const SEARCH_NAMES = new Set(SEARCH_PARAMS.map((d) => d.name));

/** docs/PARAMETERS.md's table for the search filters, then each tool's own parameters. */
export function parametersText(tools: readonly ToolBinding[]): string {
  const lines = [
    renderParameterReference()
      .replace(/^# Parameter reference/, '# Parameter reference (tool arguments and `filters`)')
      .replace(/<!--.*-->\n\n/, ''),
    '',
    'In a tool call every parameter goes by its API name: the common ones as arguments of their own, any other in `filters`. A list takes an array (or the comma-separated string); a 0/1 flag takes true or false.',
    '',
  ];
  for (const tool of tools) {
    if (tool.exports) continue;
    const own = [...tool.table.values()].filter((d) => !SEARCH_NAMES.has(d.name));
    if (own.length === 0) continue;
    lines.push(
      `## ${tool.definition.name}: its own parameters`,
      '',
      '| API name | type | constraints | meaning |',
      '|---|---|---|---|',
    );
    for (const def of own) {
      lines.push(
        `| \`${def.name}\` | ${def.type} | ${cell(constraints(def))} | ${cell(def.help)} |`,
      );
    }
    lines.push('');
  }
  return lines.join('\n');
}
