import type { CommandSpec } from '../command-spec.js';
import { OUTPUT } from '../settings/global-options.js';
import { exportList } from '../export/single-record.js';

export const query: CommandSpec = {
  name: 'query',
  group: 'tools',
  summary: 'check a --query offline (tree or error with its code), list its fields',
  description:
    'The grammar, fields and limits: `news query fields`, and QUERY-LANGUAGE.md in the documentation. Nothing here talks to the API.',
  globals: [],
  subcommands: [
    {
      name: 'check',
      summary: 'parse a query: print its tree, or the error with a caret under the fault (exit 2)',
      args: [{ name: 'text', description: 'the query, quoted for the shell' }],
      examples: [
        `news query check 'title:"interest rates"~5 AND {{entity.name:Tesla AND entity.sentiment.polarity:negative}}'`,
        "news query check 'language.code:(en OR fr) AND read_time:[3 TO 10]'",
      ],
      async run(input, runtime) {
        const { describeQuery, parseQuery, printQuery } = await import(
          '../../params/query/index.js'
        );
        const { buildRequestBody } = await import('../../params/validate.js');
        const text = input.args[0] ?? '';
        // The same check `news search --query` makes, so the two can never disagree.
        buildRequestBody([{ name: 'query', raw: text, label: 'query' }], { now: runtime.io.now() });
        const tree = parseQuery(text);
        await runtime.write(`${describeQuery(tree)}\ncanonical: ${printQuery(tree)}\n`);
      },
    },
    {
      name: 'fields',
      summary: 'the fields a query can use, with their types and values',
      globals: OUTPUT,
      examples: ['news query fields', 'news query fields -f csv'],
      async run(_input, runtime) {
        const { queryFields } = await import('../../params/query/index.js');
        const rows = queryFields().map((f) => ({
          field: f.name,
          type: f.type,
          where: f.inEntityBlock
            ? f.outsideEntityBlock
              ? 'anywhere'
              : 'inside {{ }} only'
            : 'outside {{ }}',
          values: f.values?.join(',') ?? '',
        }));
        await exportList(runtime, rows, 'generic', 'news query fields');
      },
    },
  ],
};
