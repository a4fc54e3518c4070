import { UsageError } from '../../api/errors.js';
import { ARTICLE_ID_PARAM } from '../../params/article-params.js';
import { searchParam } from '../../params/registry.js';
import { checkValue } from '../../params/values.js';

/**
 * Ids given as arguments (`news article 1 2,3`), checked by the parameter the
 * endpoint fills with them (`id` of the article endpoint: at most 100 numeric
 * ids; `author.id`: at most 3), so arguments and flags obey one rule. Returns
 * the comma list.
 */
export function idArguments(
  args: readonly string[],
  param: 'id' | 'author.id',
  label: string,
): string {
  const joined = args
    .flatMap((a) => a.split(','))
    .map((a) => a.trim())
    .filter((a) => a !== '')
    .join(',');
  if (joined === '') throw new UsageError(`${label} needs at least one id`);
  const def = param === 'id' ? ARTICLE_ID_PARAM : searchParam(param);
  if (def === undefined) throw new Error(`${param} is missing from the parameter table`);
  const check = checkValue(def, joined);
  if (!check.ok)
    throw new UsageError(`${label} ${check.rule}`, { hint: 'split the ids over several calls' });
  return String(check.value);
}
