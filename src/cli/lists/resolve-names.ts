/**
 * `--resolve`: the specification requires location.name, brand.name,
 * disaster.name, disease.name, event.name and sport.name to match a known
 * entity exactly (else ER0218 to ER0250, after the search was paid for). The
 * suggest endpoint is free, so names are looked up there first and sent in
 * the spelling the service knows; a name it cannot match stops the command
 * before the search is sent.
 */
import { UsageError } from '../../api/errors.js';
import { flagName, searchParam } from '../../params/registry.js';
import {
  EXACT_ENTITY_CODES,
  type ExactEntityKind,
  type ParamDef,
  type RequestBody,
} from '../../params/types.js';
import { splitList } from '../../params/values.js';
import type { CommandInput, OptionSpec } from '../command-spec.js';
import type { Runtime } from '../runtime/runtime.js';

export const RESOLVE_OPTION: OptionSpec = {
  flags: '--resolve',
  description:
    'look up --location-name, --brand-name, --disaster-name, --disease-name, --event-name and --sport-name through the suggest endpoint (free) and send the exact spelling',
};

/** Entity types of the suggest endpoint (OpenAPI enum) that each kind accepts. */
const SUGGEST_TYPES: Readonly<Record<ExactEntityKind, readonly string[]>> = {
  location: ['location'],
  brand: ['brand'],
  disaster: ['natural-disaster'],
  disease: ['disease'],
  event: ['event'],
  sport: ['sport'],
};

interface Suggestion {
  name?: unknown;
  type?: unknown;
}

/** Case, accents and spacing do not make a different entity. */
const fold = (s: string) =>
  s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * Returns `body` with every exact-entity name replaced by its known spelling,
 * when the command was given `--resolve`; otherwise `body` unchanged.
 */
export async function resolveNames(
  body: RequestBody,
  input: CommandInput,
  runtime: Runtime,
  lookup: (name: string) => ParamDef | undefined = searchParam,
): Promise<RequestBody> {
  if (input.options['resolve'] !== true) return body;
  const targets = Object.keys(body).filter((name) => lookup(name)?.exactEntity !== undefined);
  if (targets.length === 0) {
    runtime.report.debug('--resolve: no name filter that must match a known entity');
    return body;
  }
  if (runtime.settings.dryRun) {
    runtime.report.notice(
      '--dry-run: names are shown as typed; --resolve looks them up only when sending',
    );
    return body;
  }
  const client = await runtime.client();
  const out: RequestBody = { ...body };
  for (const param of targets) {
    const kind = lookup(param)!.exactEntity!;
    const resolved: string[] = [];
    for (const typed of splitList(String(body[param]))) {
      const response = await client.request<unknown>({
        method: 'GET',
        path: '/v1/suggest/entities',
        query: { prefix: typed },
        signal: runtime.signal,
      });
      const name = pick(
        typed,
        kind,
        Array.isArray(response.body) ? (response.body as Suggestion[]) : [],
      );
      if (name.found === undefined)
        throw unresolved(param, kind, typed, name.candidates, name.otherKind);
      if (name.found !== typed)
        runtime.report.notice(`resolved ${param} "${typed}" → "${name.found}"`);
      else runtime.report.debug(`${param} "${typed}" is a known ${kind}`);
      resolved.push(name.found);
    }
    out[param] = resolved.join(',');
  }
  return out;
}

interface Pick {
  found: string | undefined;
  /** Names of this kind the prefix found, for the hint. */
  candidates: string[];
  /** The name matched, but as another kind of entity. */
  otherKind: string | undefined;
}

function pick(typed: string, kind: ExactEntityKind, suggestions: readonly Suggestion[]): Pick {
  const types = SUGGEST_TYPES[kind];
  const named = suggestions.filter(
    (s): s is { name: string; type?: unknown } => typeof s.name === 'string',
  );
  const ofKind = named.filter((s) => types.includes(String(s.type)));
  const exact =
    ofKind.find((s) => s.name === typed) ?? ofKind.find((s) => fold(s.name) === fold(typed));
  const elsewhere = named.find(
    (s) => fold(s.name) === fold(typed) && !types.includes(String(s.type)),
  );
  return {
    found: exact?.name,
    candidates: ofKind.map((s) => s.name).slice(0, 5),
    otherKind: elsewhere === undefined ? undefined : String(elsewhere.type),
  };
}

function unresolved(
  param: string,
  kind: ExactEntityKind,
  typed: string,
  candidates: readonly string[],
  otherKind: string | undefined,
): UsageError {
  const code = EXACT_ENTITY_CODES[kind];
  const hint =
    otherKind !== undefined
      ? `"${typed}" is known as a ${otherKind}, not a ${kind}`
      : candidates.length > 0
        ? `known ${kind} names starting so: ${candidates.map((c) => `"${c}"`).join(', ')}`
        : `see \`news suggest entities ${JSON.stringify(typed)}\``;
  return new UsageError(`--${flagName(param)} "${typed}" matches no known ${kind} [${code}]`, {
    code,
    hint,
  });
}
