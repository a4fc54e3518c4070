/**
 * The client fuzz suite, part one: arbitrary server answers through
 * every format. Whatever the server sends (envelope fields of the wrong type,
 * records that are not objects, huge strings, control characters, the key
 * echoed back, endless and repeating pages, error statuses with any body),
 * the CLI must end with exit 0 or one `error:` line and a documented code,
 * never an internal error, never a control character or the key on stderr,
 * never a temporary file left, never a record written twice.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORMAT_NAMES } from '../../src/output/formats.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../output/helpers.js';
import { type HostileAnswer, HostileServer, pageOf } from './hostile-server.js';
import { fuzzParams, fuzzTimeout } from './settings.js';

const KEY = 'api_live_Fuzz~Key/9+z';
const KEY_FORMS = [
  KEY,
  encodeURIComponent(KEY),
  new URLSearchParams({ k: KEY }).toString().slice(2),
];
const RUNS = 60;

const server = new HostileServer();
beforeAll(() => server.start());
afterAll(() => server.stop());

/** Pieces a hostile server likes: escapes, bidi, line breaks, the key in its forms. */
const nasty = fc.constantFrom(
  '\u001b[2J',
  '\u001b]0;title\u0007',
  '\u001b]8;;http://x\u001b\\',
  '\u009b31m',
  '\u0007',
  '\r\nerror: forged',
  '\u202e',
  '\u2066',
  '\u0000',
  '\ud800',
  ...KEY_FORMS,
  'api_live_Fu',
  '=cmd|',
  '<![CDATA[',
  ']]>',
  '&amp;',
);
const text = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .array(fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), nasty), { maxLength: 6 })
      .map((p) => p.join('')),
  },
  { weight: 1, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 300_000 }).map((n) => 'w'.repeat(n)) },
);
const scalar = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const anyJson = fc.oneof(
  { weight: 3, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(text, scalar, { maxKeys: 3 }) },
);

/** Something in the shape of a record, or not: nulls, strings, arrays, nested oddities. */
const record = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record(
      {
        id: fc.oneof(fc.integer({ min: 1, max: 40 }), text, fc.constant(null)),
        title: text,
        published_at: fc.oneof(fc.constant('2026-11-01T10:00:00Z'), text, fc.integer()),
        source: fc.oneof(fc.record({ domain: text, id: fc.integer() }), scalar),
        entities: fc.oneof(
          fc.array(fc.dictionary(text, scalar, { maxKeys: 2 }), { maxLength: 2 }),
          scalar,
        ),
        extra: anyJson,
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 2 }) },
);

const envelope = fc.record(
  {
    status: fc.oneof(fc.constant('ok'), anyJson),
    page: fc.oneof(fc.integer({ min: 0, max: 5 }), anyJson),
    has_next_pages: fc.oneof(fc.boolean(), anyJson),
    results: fc.oneof(
      { weight: 8, arbitrary: fc.array(record, { maxLength: 8 }) },
      { weight: 1, arbitrary: anyJson },
    ),
    request_id: anyJson,
  },
  { requiredKeys: [] },
);

const errorBody = fc.oneof(
  fc.record(
    {
      status: anyJson,
      request_id: fc.oneof(text, anyJson),
      errors: fc.oneof(
        fc.array(
          fc.oneof(
            fc.record(
              { code: fc.oneof(text, anyJson), message: fc.oneof(text, anyJson), status: anyJson },
              { requiredKeys: [] },
            ),
            scalar,
          ),
          { maxLength: 3 },
        ),
        anyJson,
      ),
    },
    { requiredKeys: [] },
  ),
  anyJson,
);

/** Header values Node can send: visible ASCII and spaces (a server cannot send control bytes in a header either). */
const headerText = fc.oneof(
  fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
  fc.constantFrom(...KEY_FORMS),
);

const answer: fc.Arbitrary<HostileAnswer> = fc.oneof(
  { weight: 6, arbitrary: envelope.map((body) => ({ status: 200, body }) as HostileAnswer) },
  {
    weight: 3,
    arbitrary: fc
      .record({
        status: fc.constantFrom(400, 401, 402, 403, 404, 418, 422, 429, 500, 502),
        body: errorBody,
        headers: fc.option(fc.record({ 'x-request-id': headerText }), { nil: undefined }),
      })
      .map(({ status, body, headers }) => ({ status, body, ...(headers ? { headers } : {}) })),
  },
  {
    weight: 1,
    arbitrary: text.map((body) => ({
      status: 200,
      body,
      headers: { 'content-type': 'text/plain' },
    })),
  },
  {
    weight: 1,
    arbitrary: fc.constant({ status: 200, endless: '{"results":[' + '{"id":1},'.repeat(500) }),
  },
  { weight: 1, arbitrary: anyJson.map((body) => ({ status: 200, body })) },
);

const scenario = fc.record({
  pages: fc.array(answer, { minLength: 1, maxLength: 3 }),
  format: fc.constantFrom(...FORMAT_NAMES),
  toFile: fc.boolean(),
  all: fc.boolean(),
  smallCap: fc.boolean(),
  auth: fc.constantFrom('header', 'query', 'bearer'),
});

const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;
const BINARY = new Set(['xlsx', 'parquet']);
const dir = tempDir();
let cases = 0;

describe('client fuzz: arbitrary server answers through every format', () => {
  it(
    'exit 0 or one error line; no internal error, control character, key, temporary file or repeated record',
    async () => {
      await fc.assert(
        fc.asyncProperty(scenario, async (s) => {
          cases += 1;
          // The last answer repeats for every later page: an endless server when it says there is more.
          server.answer((req) => s.pages[Math.min(pageOf(req), s.pages.length) - 1]!);
          const out = join(dir, `out-${cases}.${s.format}`);
          const toFile = s.toFile || BINARY.has(s.format);
          const r = await runCli([
            'search',
            '--title',
            'rates',
            '--base-url',
            server.url,
            '--api-key',
            KEY,
            '--auth',
            s.auth,
            '--retries',
            '0',
            '-f',
            s.format,
            ...(toFile ? ['-o', out] : []),
            ...(s.all ? ['--all'] : []),
            ...(s.smallCap ? ['--max-response-mb', '0.25'] : []),
          ]);
          const where = `exit ${r.code}\n${r.stderr.slice(0, 2000)}`;
          expect([0, 1, 3, 4], where).toContain(r.code);
          expect(r.stderr, where).not.toContain('unexpected failure');
          const errors = r.stderr.split('\n').filter((l) => l.startsWith('error:'));
          expect(errors.length, where).toBe(r.code === 0 ? 0 : 1);
          expect(CONTROL.test(r.stderr), where).toBe(false);
          for (const form of KEY_FORMS) expect(r.stderr.includes(form), where).toBe(false);
          expect(r.stderr.includes('Fuzz~Ke') || r.stderr.includes('Fuzz%7EKe'), where).toBe(false);
          expect(
            readdirSync(dir).filter((f) => f.endsWith('.tmp')),
            where,
          ).toEqual([]);
          if (toFile) expect(existsSync(out), where).toBe(r.code === 0);
          if (r.code === 0 && !toFile && (s.format === 'jsonl' || s.format === 'ndjson')) {
            const ids = r.stdout
              .split('\n')
              .filter((l) => l !== '')
              .map((l) => (JSON.parse(l) as { id?: unknown }).id)
              .filter((id) => typeof id === 'number' || (typeof id === 'string' && id !== ''))
              .map((id) => JSON.stringify(id));
            expect(new Set(ids).size, where).toBe(ids.length);
          }
          // A paging loop always ends: at most one request past the last scripted page.
          expect(server.requests.length, where).toBeLessThanOrEqual(s.pages.length + 1);
          rmSync(out, { force: true });
        }),
        fuzzParams(RUNS),
      );
      console.info(`client fuzz (server answers): ${cases} cases`);
    },
    fuzzTimeout(RUNS, 400),
  );
});
