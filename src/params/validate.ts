import { UsageError } from './errors.js';
import { searchParam } from './registry.js';
import { caretLine, validateQuery } from './query/index.js';
import { SEARCH_PARAMS } from './search-params.js';
import { RELATIVE_DATE_FORMS, resolveRelativeDate } from './relative-dates.js';
import { type ParamDef, RELATIVE_DATES, type RawValue, type RequestBody } from './types.js';
import { checkValue, parseDateValue, splitList } from './values.js';

/** A value and where the user gave it, so messages can name the flag they typed. */
export interface RawParam {
  readonly name: string;
  readonly raw: RawValue;
  /** How to name it in an error: `--per-page`, or `per_page` when it came from `--param`. */
  readonly label: string;
}

export interface ValidateOptions {
  /** "Now", for the 31-day title window when only a start date is given. */
  readonly now?: Date;
  /** Parameter definitions to check against (default: the search table). */
  readonly lookup?: (name: string) => ParamDef | undefined;
  /**
   * The caller fetches a long title search in windows the service accepts
   * (the list runner's window splitting): ER0110 does not apply to the whole range.
   */
  readonly splitTitleWindow?: boolean;
}

const DAY_MS = 86_400_000;
export const TITLE_WINDOW_DAYS = 31;

function fail(label: string, rule: string, code?: string, hint?: string): never {
  throw new UsageError(`${label} ${rule}${code ? ` [${code}]` : ''}`, { code, hint });
}

/**
 * Checks every value and the rules that tie parameters together, and returns the
 * typed JSON body in table order. Throws UsageError on the first problem; nothing
 * is sent in that case.
 */
export function buildRequestBody(
  params: readonly RawParam[],
  options: ValidateOptions = {},
): RequestBody {
  const lookup = options.lookup ?? searchParam;
  const now = options.now ?? new Date();
  const checked: RequestBody = {};
  const labels = new Map<string, string>();
  const relative: Record<string, string> = {};
  for (const param of params) {
    const def = lookup(param.name);
    if (!def) {
      // Only `--param` can name an unknown parameter: the service would ignore it silently.
      fail(
        param.label,
        `is not a parameter of this endpoint`,
        undefined,
        'see --help for the parameters it takes',
      );
    }
    // `-24h`, `today`: resolved here, once per run, to what the service takes.
    const resolved = def.type === 'date' ? resolveRelativeDate(String(param.raw), now) : undefined;
    if (resolved !== undefined) relative[def.name] = String(param.raw).trim().toLowerCase();
    else delete relative[def.name];
    const check = checkValue(def, resolved ?? param.raw);
    if (!check.ok) fail(param.label, check.rule, check.code, check.hint ?? ruleHint(def));
    checked[def.name] = check.value;
    labels.set(def.name, param.label);
  }
  // Table order, whatever order the flags came in: stable bodies, stable dry-runs.
  const body: RequestBody = {};
  for (const name of Object.keys(checked).sort((a, b) => tableIndex(a) - tableIndex(b))) {
    body[name] = checked[name] as string | number;
  }
  checkCrossRules(
    body,
    (name) => labels.get(name) ?? name,
    lookup,
    now,
    options.splitTitleWindow === true,
  );
  if (Object.keys(relative).length > 0) body[RELATIVE_DATES] = relative;
  return body;
}

const TABLE_INDEX = new Map(SEARCH_PARAMS.map((d, i) => [d.name, i]));
const tableIndex = (name: string) => TABLE_INDEX.get(name) ?? Number.MAX_SAFE_INTEGER;

function ruleHint(def: ParamDef): string | undefined {
  if (def.enum && def.enum.length > 12) return `valid values: ${def.enum.join(', ')}`;
  if (def.type === 'date')
    return `2026-05-01, 2026-05-01T09:30:00Z, or relative: ${RELATIVE_DATE_FORMS}`;
  return undefined;
}

function checkCrossRules(
  body: RequestBody,
  label: (name: string) => string,
  lookup: (name: string) => ParamDef | undefined,
  now: Date,
  splitTitleWindow: boolean,
): void {
  const has = (name: string) => body[name] !== undefined;

  // ER0293 is the specification's rule for entity.sentiment.polarity only; the
  // score bounds alone apply to any entity of the article (openapi), so they pass.
  if (has('entity.sentiment.polarity')) {
    const selected = Object.keys(body).some((name) => lookup(name)?.entitySelector);
    if (!selected) {
      fail(
        label('entity.sentiment.polarity'),
        'needs an entity selector (--entity-id or a --*-name filter such as --organization-name)',
        'ER0293',
      );
    }
  }

  for (const name of Object.keys(body)) {
    if (!name.endsWith('.min')) continue;
    const base = name.slice(0, -'.min'.length);
    const min = body[name];
    const max = body[`${base}.max`];
    if (typeof min === 'number' && typeof max === 'number' && min > max) {
      fail(label(name), `(${min}) is greater than ${label(`${base}.max`)} (${max})`);
    }
  }

  checkDates(body, label, lookup, now, splitTitleWindow);
  checkLocation(body, label);

  const query = body['query'];
  if (typeof query === 'string') checkQuery(query, label('query'));

  if (has('search') && body['hl'] !== '1') {
    fail(label('search'), 'only affects highlighting, which is off', undefined, 'add --hl 1');
  }
}

function checkDates(
  body: RequestBody,
  label: (name: string) => string,
  lookup: (name: string) => ParamDef | undefined,
  now: Date,
  splitTitleWindow: boolean,
): void {
  const start = body['published_at.start'];
  const end = body['published_at.end'];
  const startMs = typeof start === 'string' ? parseDateValue(start) : undefined;
  // A date-only end covers its whole day.
  const endMs =
    typeof end === 'string'
      ? parseDateValue(end) + (/^\d{4}-\d{2}-\d{2}$/.test(end) ? DAY_MS : 0)
      : undefined;
  if (startMs !== undefined && endMs !== undefined && startMs >= endMs) {
    fail(label('published_at.start'), `(${start}) is after ${label('published_at.end')} (${end})`);
  }
  const titleFilter = Object.keys(body).find((name) => lookup(name)?.titleWindow);
  if (titleFilter === undefined || startMs === undefined || splitTitleWindow) return;
  const width = (endMs ?? now.getTime()) - startMs;
  if (width > TITLE_WINDOW_DAYS * DAY_MS) {
    fail(
      label(titleFilter),
      `searches at most ${TITLE_WINDOW_DAYS} days, but the published_at range spans ${Math.ceil(width / DAY_MS)} days`,
      'ER0110',
      'narrow --published-at-start/--published-at-end to 31 days, or leave both out to search the last 31 days',
    );
  }
}

function checkLocation(body: RequestBody, label: (name: string) => string): void {
  const has = (name: string) => body[name] !== undefined;
  for (const needy of ['location.radius', 'location.radius.min']) {
    if (has(needy) && !(has('location.lat') && has('location.lng'))) {
      fail(label(needy), 'needs both --location-lat and --location-lng');
    }
  }
  if (has('location.lat') !== has('location.lng')) {
    const given = has('location.lat') ? 'location.lat' : 'location.lng';
    fail(
      label(given),
      `needs ${given === 'location.lat' ? '--location-lng' : '--location-lat'} as well`,
    );
  }
  const bbox = body['location.bbox'];
  if (typeof bbox === 'string') {
    const parts = splitList(bbox).map(Number);
    const [minLat, maxLat, minLng, maxLng] = parts;
    const valid =
      parts.length === 4 &&
      parts.every(Number.isFinite) &&
      minLat !== undefined &&
      maxLat !== undefined &&
      minLng !== undefined &&
      maxLng !== undefined &&
      minLat >= -90 &&
      maxLat <= 90 &&
      minLat <= maxLat &&
      minLng >= -180 &&
      maxLng <= 180 &&
      minLng <= maxLng;
    if (!valid) {
      fail(
        label('location.bbox'),
        'must be minLat,maxLat,minLng,maxLng with -90 ≤ lat ≤ 90 and -180 ≤ lng ≤ 180',
      );
    }
  }
}

/** The query language is checked offline: a bad query costs nothing. */
function checkQuery(text: string, label: string): void {
  const result = validateQuery(text);
  if (result.ok) return;
  const { error } = result;
  const usage = new UsageError(
    `${label}: ${error.detail} at offset ${error.position} [${error.code}]`,
    {
      code: error.code,
      hint: error.hint ?? '`news query fields` lists the fields and the values they take',
    },
  );
  usage.context = caretLine(text, error).split('\n');
  throw usage;
}
