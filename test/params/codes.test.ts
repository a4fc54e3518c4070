/**
 * ISO 639-1 and ISO 3166-1 alpha-2 (src/params/codes.ts): declared once,
 * checked by the client on every flag that takes them (exit 2, with a
 * did-you-mean), offered by completion, and dropped silently by the mock
 * as the service drops an invalid value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/server.js';
import {
  COUNTRY_CODES,
  LANGUAGE_CODES,
  codeName,
  isCode,
  suggestCode,
} from '../../src/params/codes.js';
import { LOCAL_PARAMS } from '../../src/params/local-params.js';
import { SEARCH_PARAMS } from '../../src/params/search-params.js';
import { TRENDS_PARAMS } from '../../src/params/trends-params.js';
import { validateQuery } from '../../src/params/query/index.js';
import { runCli } from '../helpers/cli.js';

const ALL_TABLES = [...SEARCH_PARAMS, ...LOCAL_PARAMS, ...TRENDS_PARAMS];

describe('the lists', () => {
  it('hold the 183 ISO 639-1 and 249 ISO 3166-1 alpha-2 codes, lower case, once each', () => {
    expect(LANGUAGE_CODES).toHaveLength(183);
    expect(COUNTRY_CODES).toHaveLength(249);
    for (const list of [LANGUAGE_CODES, COUNTRY_CODES]) {
      expect(new Set(list).size).toBe(list.length);
      for (const code of list) expect(code).toMatch(/^[a-z]{2}$/);
    }
    expect(isCode('country', 'GB')).toBe(true);
    expect(isCode('country', 'uk')).toBe(false);
    expect(isCode('language', 'uk')).toBe(true);
  });

  it('suggest the code meant, or say it is a code of the other kind', () => {
    expect(suggestCode('country', 'uk')).toMatch(/^did you mean gb/);
    expect(suggestCode('language', 'jp')).toMatch(/^did you mean ja/);
    expect(suggestCode('country', 'ja')).toMatch(/^did you mean jp/);
    expect(suggestCode('country', 'kk')).toMatch(/^kk is the ISO 639-1 language code/);
    expect(suggestCode('language', 'qq')).toBeUndefined();
  });

  it('map English names of languages and countries to their codes', () => {
    expect(suggestCode('language', 'english')).toBe('did you mean en (English)?');
    expect(suggestCode('language', 'French')).toBe('did you mean fr (French)?');
    expect(suggestCode('language', 'farsi')).toBe('did you mean fa (Persian)?');
    expect(suggestCode('country', 'germany')).toBe('did you mean de (Germany)?');
    expect(suggestCode('country', 'United States')).toBe('did you mean us (United States)?');
    expect(suggestCode('country', 'cote d ivoire')).toMatch(/^did you mean ci /);
    expect(suggestCode('country', 'Saint Lucia')).toBe('did you mean lc (St. Lucia)?');
    // One typo away, for names of five letters or more.
    expect(suggestCode('language', 'portugese')).toBe('did you mean pt (Portuguese)?');
    // A name of the other kind says so.
    expect(suggestCode('language', 'france')).toBe(
      '"france" is a country (ISO 3166-1 alpha-2 country code fr), not a language',
    );
    expect(suggestCode('language', 'xyzzy')).toBeUndefined();
  });

  it('name every code, from data (not the runtime ICU), each name standing for one code', () => {
    for (const [kind, codes] of [
      ['language', LANGUAGE_CODES],
      ['country', COUNTRY_CODES],
    ] as const) {
      const seen = new Map<string, string>();
      for (const code of codes) {
        const name = codeName(kind, code);
        expect(name, `${kind} ${code}`).not.toBe('');
        expect(seen.get(name), `${name}: ${seen.get(name)} and ${code}`).toBeUndefined();
        seen.set(name, code);
        // Every first name leads back to its own code.
        expect(suggestCode(kind, name)).toMatch(new RegExp(`^did you mean ${code} `));
      }
    }
  });

  it('every parameter that takes such codes declares its list', () => {
    const iso = ALL_TABLES.filter((d) => /ISO (639|3166)/.test(d.help));
    expect([...new Set(iso.map((d) => d.name))].sort()).toEqual(
      [
        'country',
        'ignore.language.code',
        'ignore.source.country.code',
        'language.code',
        'source.country.code',
      ].sort(),
    );
    for (const def of iso)
      expect(def.codes, def.name).toBe(/639/.test(def.help) ? 'language' : 'country');
  });
});

describe('the client refuses a code that does not exist', () => {
  it('a name typed for a code gets the code as a hint: --language-code english', async () => {
    for (const [argv, hint] of [
      [['search', '--language-code', 'english'], 'hint: did you mean en (English)?'],
      [['search', '--source-country-code', 'germany'], 'hint: did you mean de (Germany)?'],
      [['search', '--query', 'language.code:english'], 'hint: did you mean en (English)?'],
    ] as const) {
      const r = await runCli([...argv, '--mock']);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.split('\n')).toContain(hint);
    }
  });

  it.each([
    [['search', '--source-country-code', 'uk'], '--source-country-code', 'did you mean gb'],
    [['search', '--language-code', 'en,xx'], '--language-code', undefined],
    [['count', '--ignore-language-code', 'jp'], '--ignore-language-code', 'did you mean ja'],
    [
      ['stream', '--ignore-source-country-code', 'el'],
      '--ignore-source-country-code',
      'did you mean gr',
    ],
    [
      ['trends', '--field', 'source.id', '--language-code', 'us'],
      '--language-code',
      'did you mean en',
    ],
    [['local', '--place', 'Paris', '--country', 'uk'], '--country', 'did you mean gb'],
    [['search', '--param', 'language.code=zz'], '--param language.code', undefined],
    [
      ['webhooks', 'update', '1', '--source-country-code', 'uk'],
      '--source-country-code',
      'did you mean gb',
    ],
  ])('news %j', async (argv, flag, hint) => {
    const r = await runCli([...argv, '--mock']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`error: ${flag} `);
    expect(r.stderr).toMatch(/ISO (639-1 language|3166-1 alpha-2 country) code/);
    if (hint !== undefined) expect(r.stderr).toContain(`hint: ${hint}`);
    expect(r.stderr).not.toContain('using the built-in mock');
  });

  it('in a query too, with the caret and the same hint', () => {
    const result = validateQuery('title:rates AND source.country.code:uk');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('ER0703');
      expect(result.error.hint).toMatch(/did you mean gb/);
      expect(result.error.position).toBe(36);
    }
    expect(validateQuery('language.code:(en OR uk) AND source.country.code:GB').ok).toBe(true);
  });

  it('accepts every code of the lists, in any case', async () => {
    const r = await runCli([
      'search',
      '--mock',
      '--dry-run',
      '--language-code',
      'EN,uk,zu',
      '--source-country-code',
      'gb,Zw,ax',
    ]);
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('completion', () => {
  it('offers exactly the lists, with names', async () => {
    const tab = async (...words: string[]) => {
      const r = await runCli(['__complete', ...words]);
      return r.stdout.split('\n').filter((l) => l !== '' && !l.startsWith(':'));
    };
    const countries = await tab('search', '--source-country-code', '');
    expect(countries.map((l) => l.split('\t')[0])).toEqual([...COUNTRY_CODES]);
    expect(countries).toContain('gb\tUnited Kingdom');
    const languages = await tab('search', '--language-code', 'en,');
    expect(languages.map((l) => l.split('\t')[0])).toEqual(
      LANGUAGE_CODES.filter((c) => c !== 'en').map((c) => `en,${c}`),
    );
    expect(await tab('local', '--country', 'u')).toEqual(
      COUNTRY_CODES.filter((c) => c.startsWith('u')).map((c) => expect.stringMatching(`^${c}\t`)),
    );
  });
});

describe('the mock stays lenient, as the service', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, quiet: true });
  });
  afterAll(() => mock.close());

  const count = async (params: Record<string, string>): Promise<number> => {
    const response = await fetch(`${mock.url}/v1/news/count`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'api_live_mock_pro' },
      body: JSON.stringify(params),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { count: number }).count;
  };

  it('a code that does not exist drops the filter (200, everything), a real one filters', async () => {
    const all = await count({});
    expect(await count({ 'language.code': 'xx' })).toBe(all);
    expect(await count({ 'source.country.code': 'uk' })).toBe(all);
    const german = await count({ 'language.code': 'de' });
    expect(german).toBeGreaterThan(0);
    expect(german).toBeLessThan(all);
    expect(await count({ 'source.country.code': 'gb' })).toBeGreaterThan(0);
    // A code that exists but that no fixture article has matches nothing.
    expect(await count({ 'language.code': 'zu' })).toBe(0);
  });
});
