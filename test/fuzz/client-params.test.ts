/**
 * The client fuzz suite, part two: arbitrary values for every flag of
 * the parameter table (and the global limits). Each run must exit 0 (and
 * send a request) or exit 2 (and send nothing, with one `error:` line); and
 * what is sent must obey the specification's rules, checked here from the
 * specification directly, not through the table's own checker: list limits,
 * no empty list value, no wildcard in a flat filter the service would drop,
 * real calendar dates, numbers within their bounds, enum values.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flagName } from '../../src/params/registry.js';
import { SEARCH_PARAMS } from '../../src/params/search-params.js';
import type { ParamDef } from '../../src/params/types.js';
import { runCli } from '../helpers/cli.js';
import { apiFlags, useRecordingServer } from '../helpers/recording-server.js';
import { fuzzParams, fuzzTimeout } from './settings.js';

const server = useRecordingServer();
const RUNS = 100;
const BY_NAME = new Map(SEARCH_PARAMS.map((d) => [d.name, d]));
// Text that is not a filter the service could drop: the query language has its
// own wildcard error (ER0704), a pattern is a pattern, the others shape output.
const WILDCARD_OK = new Set([
  'query',
  'prompt',
  'search',
  'title_pattern',
  'hl.tag.pre',
  'hl.tag.post',
  'fl',
  'location.bbox',
]);

/** A value that is often almost right: the edges are where the checks break. */
function valueFor(def: ParamDef): fc.Arbitrary<string> {
  const near: fc.Arbitrary<string>[] = [
    fc.constantFrom(
      '',
      ' ',
      ',',
      'a,,b',
      '*',
      'ab*',
      '?x',
      '\u0000',
      '\u001b[2J',
      '\r\n',
      '-1',
      '1e999',
      'NaN',
      'x'.repeat(5000),
    ),
    fc.string({ unit: 'binary', maxLength: 20 }),
  ];
  if (def.enum)
    near.push(
      fc.constantFrom(...def.enum),
      fc.array(fc.constantFrom(...def.enum, ''), { maxLength: 7 }).map((v) => v.join(',')),
    );
  if (def.type === 'integer' || def.type === 'number') {
    const lo = def.min ?? -1e6;
    const hi = def.max ?? 1e6;
    near.push(
      fc.double({ min: lo - 2, max: hi + 2, noNaN: true }).map(String),
      fc.integer({ min: Math.floor(lo) - 2, max: Math.ceil(hi) + 2 }).map(String),
      fc.constantFrom(String(lo), String(hi), '0', '1.5', '0x10', '1e3'),
    );
  }
  if (def.type === 'date') {
    near.push(
      fc
        .record({
          y: fc.integer({ min: 1999, max: 2030 }),
          m: fc.integer({ min: 0, max: 13 }),
          d: fc.integer({ min: 0, max: 32 }),
        })
        .map(({ y, m, d }) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`),
      fc
        .record({
          h: fc.integer({ min: 0, max: 25 }),
          mi: fc.integer({ min: 0, max: 61 }),
          z: fc.constantFrom('Z', '+01:00', '-25:00', ''),
        })
        .map(
          ({ h, mi, z }) =>
            `2026-11-01T${String(h).padStart(2, '0')}:${String(mi).padStart(2, '0')}:00${z}`,
        ),
    );
  }
  if (def.type === 'flag' || def.type === 'switch')
    near.push(fc.constantFrom('0', '1', 'true', 'false', '2', 'yes'));
  if (def.list !== undefined) {
    near.push(
      fc
        .array(
          fc.constantFrom('en', 'fr', 'us', 'gb', '12', 'medtop:04000000', 'a.b', 'x*', '', ' '),
          { maxLength: 7 },
        )
        .map((v) => v.join(',')),
    );
  }
  if (def.minLength !== undefined || def.maxLength !== undefined) {
    const lo = def.minLength ?? 0;
    const hi = def.maxLength ?? 200;
    near.push(fc.integer({ min: Math.max(0, lo - 1), max: hi + 1 }).map((n) => 'q'.repeat(n)));
  }
  return fc.oneof(...near);
}

/** A value the specification accepts, so that runs get far enough to send. */
function validFor(def: ParamDef): fc.Arbitrary<string> {
  if (def.enum) return fc.constantFrom(...def.enum);
  switch (def.type) {
    case 'integer':
      return fc
        .integer({
          min: Math.ceil(def.min ?? 0) + (def.exclusiveMin ? 1 : 0),
          max: Math.floor(def.max ?? 1000),
        })
        .map(String);
    case 'number':
      return fc
        .double({
          min: (def.min ?? 0) + (def.exclusiveMin ? 0.5 : 0),
          max: def.max ?? 1000,
          noNaN: true,
        })
        .map(String);
    case 'flag':
    case 'switch':
      return fc.constantFrom('0', '1');
    case 'date':
      return fc.constantFrom('2026-11-01', '2026-10-15T08:30:00Z');
    case 'string':
      if (def.pattern) return fc.constantFrom('12', 'en', 'medtop:04000000', 'business.finance');
      return fc
        .string({ minLength: def.minLength ?? 1, maxLength: Math.min(def.maxLength ?? 20, 20) })
        .map((v) => v.replace(/[,*?]/g, 'a'));
  }
}

const assignment = fc
  .constantFrom(...SEARCH_PARAMS)
  .chain((def) =>
    fc
      .oneof({ weight: 2, arbitrary: validFor(def) }, { weight: 3, arbitrary: valueFor(def) })
      .map((value) => ({ def, value })),
  );
const someGlobals = fc.record(
  {
    // Valid timeouts here are long enough for loopback: a 1 ms timeout rightly times out (exit 5).
    timeout: fc.oneof(
      fc.constantFrom(
        '0',
        '0.0004',
        '5.2345',
        '99999999999',
        '2147483',
        'abc',
        '-5',
        '1e3',
        '2147484',
      ),
      fc
        .double()
        .filter((d) => !(d >= 0.0005 && d < 5))
        .map(String),
    ),
    'max-response-mb': fc.oneof(
      fc.constantFrom('0', '0.0001', '1', '4096', '4097', 'x'),
      fc.double().map(String),
    ),
    retries: fc.constantFrom('0', '1', '-1', '1.5', 'x'),
  },
  { requiredKeys: [] },
);
const globals = fc.oneof(
  { weight: 4, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: someGlobals },
);

function isCalendarDate(text: string): boolean {
  const m =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):?(\d{2}))?)?$/.exec(
      text,
    );
  if (m === null) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const day = new Date(Date.UTC(y, mo - 1, d));
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== mo - 1 || day.getUTCDate() !== d)
    return false;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59))
    return false;
  return m[7] === undefined || (Number(m[7]) <= 23 && Number(m[8]) <= 59);
}

/** What the specification refuses (or silently drops) in a sent value; empty when it is fine. */
function specProblems(def: ParamDef, value: unknown): string[] {
  const problems: string[] = [];
  if (def.type === 'integer' || def.type === 'number') {
    if (typeof value !== 'number' || !Number.isFinite(value))
      return [`${def.name}: not a finite number`];
    if (def.type === 'integer' && !Number.isInteger(value))
      problems.push(`${def.name}: not an integer`);
    if (def.min !== undefined && (def.exclusiveMin ? value <= def.min : value < def.min))
      problems.push(`${def.name}: below ${def.min}`);
    if (def.max !== undefined && value > def.max) problems.push(`${def.name}: above ${def.max}`);
    return problems;
  }
  if (def.type === 'flag') return value === 0 || value === 1 ? [] : [`${def.name}: not 0/1`];
  const text = String(value);
  if (text.trim() === '') problems.push(`${def.name}: empty`);
  if (/[\u0000-\u001f]/.test(text)) problems.push(`${def.name}: control character`);
  if (def.type === 'date' && !isCalendarDate(text))
    problems.push(`${def.name}: not a calendar date`);
  const parts = def.list !== undefined ? text.split(',') : [text];
  if (def.list !== undefined) {
    if (parts.length > def.list)
      problems.push(`${def.name}: ${parts.length} values, at most ${def.list}`);
    if (parts.some((p) => p.trim() === '')) problems.push(`${def.name}: an empty list value`);
  }
  for (const p of parts) {
    if (def.enum && !def.enum.includes(p)) problems.push(`${def.name}: "${p}" not in the enum`);
    if (def.maxLength !== undefined && p.length > def.maxLength)
      problems.push(`${def.name}: longer than ${def.maxLength}`);
    if (def.minLength !== undefined && p.length < def.minLength)
      problems.push(`${def.name}: shorter than ${def.minLength}`);
  }
  if (def.type === 'string' && !WILDCARD_OK.has(def.name) && /[*?]/.test(text))
    problems.push(`${def.name}: a wildcard`);
  return problems;
}

let cases = 0;
let sent = 0;

describe('client fuzz: arbitrary values for every flag', () => {
  it(
    'exit 0 with a request the specification accepts, or exit 2 with nothing sent',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(assignment, { minLength: 1, maxLength: 3 }),
          globals,
          async (assignments, global) => {
            cases += 1;
            server.requests.length = 0;
            const argv = [
              'search',
              ...assignments.map(({ def, value }) => `--${flagName(def.name)}=${value}`),
              ...apiFlags(server),
              ...Object.entries(global).map(([flag, value]) => `--${flag}=${value}`),
              '-f',
              'jsonl',
            ];
            const r = await runCli(argv);
            const where = `${JSON.stringify(argv.slice(0, -9))} → exit ${r.code}\n${r.stderr.slice(0, 1000)}`;
            expect([0, 2], where).toContain(r.code);
            expect(r.stderr, where).not.toContain('unexpected failure');
            if (r.code === 2) {
              expect(server.requests, where).toHaveLength(0);
              expect(
                r.stderr.split('\n').filter((l) => l.startsWith('error:')),
                where,
              ).toHaveLength(1);
              return;
            }
            expect(server.requests, where).toHaveLength(1);
            sent += 1;
            const body = (server.requests[0]?.body ?? {}) as Record<string, unknown>;
            const problems = Object.entries(body).flatMap(([name, value]) => {
              const def = BY_NAME.get(name);
              return def === undefined ? [] : specProblems(def, value);
            });
            expect(problems, where).toEqual([]);
          },
        ),
        fuzzParams(RUNS),
      );
      console.info(`client fuzz (flag values): ${cases} cases, ${sent} sent`);
    },
    fuzzTimeout(RUNS, 150),
  );
});
