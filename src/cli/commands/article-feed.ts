import { UsageError } from '../../api/errors.js';
import type { ParamDef } from '../../params/types.js';
import { buildRequestBody } from '../../params/validate.js';
import type { CommandInput } from '../command-spec.js';
import { splitsTitleWindow } from '../unattended/run-options.js';
import { pagingFrom, runList } from '../lists/list-runner.js';
import { resolveNames } from '../lists/resolve-names.js';
import type { Runtime } from '../runtime/runtime.js';

/**
 * The shape every article-feed command shares (headlines, story, entity,
 * local, journalists articles): flags → checked body → `--resolve` → paged
 * POST → export. `extra` adds what the path implies (an author id).
 */
export async function runArticleFeed(
  input: CommandInput,
  runtime: Runtime,
  path: string,
  params: readonly ParamDef[],
  extra: Readonly<Record<string, string | number>> = {},
  check?: (body: Readonly<Record<string, string | number>>) => void,
): Promise<void> {
  const byName = new Map(params.map((d) => [d.name, d]));
  const lookup = (name: string) => byName.get(name);
  const checked = buildRequestBody(input.params, {
    now: runtime.io.now(),
    lookup,
    splitTitleWindow: splitsTitleWindow(input.options),
  });
  const body = { ...checked, ...extra };
  check?.(body);
  const resolved = await resolveNames(body, input, runtime, lookup);
  await runList(
    runtime,
    { method: 'POST', path, body: resolved },
    'article',
    pagingFrom(input.options, 'body'),
    input.options['raw'] === true,
  );
}

/** A numeric id from the command line, or a usage error naming the argument. */
export function numericId(value: string | undefined, what: string): string {
  const id = value?.trim() ?? '';
  if (!/^\d+$/.test(id)) {
    throw new UsageError(`${what} must be a numeric id (got "${value ?? ''}")`);
  }
  return id;
}
