/**
 * A tool error speaks the agent's terms: the CLI's messages name flags,
 * which a tool does not take; the tool takes the API names.
 */
import { describe, expect, it } from 'vitest';
import { failure, inToolTerms } from '../../src/cli/mcp/result.js';
import { UsageError } from '../../src/params/errors.js';

describe('tool errors in tool terms', () => {
  it.each([
    [
      'hint: narrow --published-at-start/--published-at-end to 31 days',
      'hint: narrow published_at.start/published_at.end to 31 days',
    ],
    [
      'error: entity.sentiment.polarity needs an entity selector (--entity-id or a --*-name filter such as --organization-name) [ER0293]',
      'error: entity.sentiment.polarity needs an entity selector (entity.id or a *.name filter such as organization.name) [ER0293]',
    ],
    [
      'hint: `news query fields` lists the fields and the values they take',
      'hint: the resource news://docs/fields lists the fields and the values they take',
    ],
    // Not a parameter: left as it is.
    ['hint: or use --split-window', 'hint: or use --split-window'],
  ])('%s', (cli, tool) => {
    expect(inToolTerms(cli)).toBe(tool);
  });

  it('a refusal as a tool error carries the translated lines', () => {
    const result = failure(
      new UsageError('--language-code must be a code', { hint: 'try --source-country-code' }),
      {},
      undefined,
    );
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toBe(
      'error: language.code must be a code\nhint: try source.country.code',
    );
  });
});
