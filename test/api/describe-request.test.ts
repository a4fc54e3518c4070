import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { NewsClient, redactText, redactUrl, shellQuote } from '../../src/api/index.js';
import type { AuthMethod } from '../../src/api/index.js';

const KEY = 'api_live_TopSecret99';
const UA = `news-cli/1.2.3 (node ${process.version})`;

function describeWith(auth: AuthMethod, apiKey: string | undefined = KEY) {
  const client = new NewsClient({ version: '1.2.3', apiKey, auth, env: {} });
  return client.describeRequest({
    method: 'POST',
    path: '/v1/news/everything',
    query: { export: 'json' },
    body: { title: 'it\'s "quoted" $HOME `x`', per_page: 5 },
  });
}

describe('describeRequest', () => {
  it('header auth: the key header shown as ***', () => {
    const d = describeWith('header');
    expect(d.method).toBe('POST');
    expect(d.url).toBe('https://api.apitube.io/v1/news/everything?export=json');
    expect(d.headers).toEqual({
      accept: 'application/json',
      'user-agent': UA,
      'content-type': 'application/json',
      'x-api-key': '***',
    });
    expect(d.body).toEqual({ title: 'it\'s "quoted" $HOME `x`', per_page: 5 });
    expect(d.bodyText).toBe(JSON.stringify(d.body));
    expect(d.curl).toBe(
      "curl -sS -X POST 'https://api.apitube.io/v1/news/everything?export=json'" +
        " -H 'Accept: application/json'" +
        ` -H 'User-Agent: ${UA}'` +
        " -H 'Content-Type: application/json'" +
        ` -H 'X-API-Key: '"$NEWS_API_KEY"` +
        ` --data-raw '{"title":"it'\\''s \\"quoted\\" $HOME \`x\`","per_page":5}'`,
    );
    expect(JSON.stringify(d)).not.toContain(KEY);
  });

  it('bearer auth', () => {
    const d = describeWith('bearer');
    expect(d.headers['authorization']).toBe('Bearer ***');
    expect(d.curl).toContain(`-H 'Authorization: Bearer '"$NEWS_API_KEY"`);
    expect(JSON.stringify(d)).not.toContain(KEY);
  });

  it('query auth: the key redacted in the URL, $NEWS_API_KEY in curl', () => {
    const d = describeWith('query');
    expect(d.url).toBe('https://api.apitube.io/v1/news/everything?export=json&api_key=***');
    expect(d.headers['x-api-key']).toBeUndefined();
    expect(d.curl).toContain(
      `'https://api.apitube.io/v1/news/everything?export=json&api_key='"$NEWS_API_KEY"`,
    );
    expect(JSON.stringify(d)).not.toContain(KEY);
  });

  it('a key passed as an explicit api_key parameter is hidden too', () => {
    const client = new NewsClient({ version: '0', apiKey: KEY, env: {} });
    const d = client.describeRequest({
      method: 'GET',
      path: '/v1/people',
      query: { api_key: 'other_key_123' },
    });
    expect(d.url).toBe('https://api.apitube.io/v1/people?api_key=***');
    expect(d.curl).not.toContain('other_key_123');
    const p = client.describeRequest({
      method: 'POST',
      path: '/v1/news/everything',
      body: { api_key: 'other_key_123' },
    });
    expect(JSON.stringify(p)).not.toContain('other_key_123');
  });

  it('the curl line is valid shell: it runs to the same argv', () => {
    const d = describeWith('query');
    // Replace curl by printf to see how a shell splits the words, with the key variable set.
    const argv = execFileSync('sh', ['-c', `${d.curl.replace(/^curl /, "printf '%s\\n' ")}`], {
      env: { NEWS_API_KEY: KEY, PATH: process.env['PATH'] ?? '' },
      encoding: 'utf8',
    })
      .trimEnd()
      .split('\n');
    expect(argv).toContain(`https://api.apitube.io/v1/news/everything?export=json&api_key=${KEY}`);
    expect(argv.at(-1)).toBe(JSON.stringify({ title: 'it\'s "quoted" $HOME `x`', per_page: 5 }));
  });

  it('without a configured key the curl line still shows where it goes', () => {
    const d = describeWith('header', undefined);
    expect(d.headers['x-api-key']).toBe('***');
    expect(d.curl).toContain('"$NEWS_API_KEY"');
  });

  it('GET without body has no body fields', () => {
    const client = new NewsClient({
      version: '0',
      apiKey: KEY,
      env: {},
      baseUrl: 'http://127.0.0.1:4010/',
    });
    const d = client.describeRequest({
      method: 'GET',
      path: '/v1/people',
      query: { name: 'Ada', wikidata_id: undefined },
    });
    expect(d.url).toBe('http://127.0.0.1:4010/v1/people?name=Ada');
    expect(d.body).toBeUndefined();
    expect(d.bodyText).toBeUndefined();
    expect(d.curl).not.toContain('--data-raw');
    expect(d.headers['content-type']).toBeUndefined();
  });
});

describe('redaction', () => {
  it.each([
    ['https://h/x?api_key=abc', 'https://h/x?api_key=***'],
    ['https://h/x?a=1&api_key=abc&b=2', 'https://h/x?a=1&api_key=***&b=2'],
    ['https://h/x?API_KEY=abc#frag', 'https://h/x?API_KEY=***#frag'],
    ['https://h/x?my_api_key=abc', 'https://h/x?my_api_key=abc'],
  ])('redactUrl(%s)', (input, expected) => {
    expect(redactUrl(input)).toBe(expected);
  });

  it('redactText removes raw and URL-encoded forms of the key', () => {
    expect(redactText('k=a+b/c; again a%2Bb%2Fc', 'a+b/c')).toBe('k=***; again ***');
    expect(redactText('nothing', undefined)).toBe('nothing');
  });

  it('a key under 8 characters is replaced where it stands alone, never inside a word', () => {
    const hint = 'check the network, a proxy (HTTPS_PROXY) and --base-url';
    expect(redactText(hint, 'k')).toBe(hint);
    expect(redactText('api_key=k&x=1 k', 'k')).toBe('api_key=***&x=1 ***');
    expect(redactText('x-api-key: k\nauthorization: Bearer k', 'k')).toBe(
      'x-api-key: ***\nauthorization: Bearer ***',
    );
    expect(redactText(`-H 'X-API-Key: k7-x' "k7-x"`, 'k7-x')).toBe(`-H 'X-API-Key: ***' "***"`);
    // Glued to letters, digits, _ or - (any script) it is part of another word.
    expect(redactText('k7-xy _k7-x k7-x2 ék7-x', 'k7-x')).toBe('k7-xy _k7-x k7-x2 ék7-x');
    expect(redactUrl('https://h/x?api_key=k', 'k')).toBe('https://h/x?api_key=***');
    expect(redactUrl('https://h/x?api_key=a%20b&q=a+b', 'a b')).toBe(
      'https://h/x?api_key=***&q=***',
    );
  });

  it('a key of 8 characters or more is replaced wherever it appears, inside words too', () => {
    expect(redactText('xxsecret99yy secret99', 'secret99')).toBe('xx***yy ***');
    expect(redactText(`prefix${KEY}suffix`, KEY)).toBe('prefix***suffix');
  });

  it.each([
    ['plain', 'plain'],
    ['a b', "'a b'"],
    ["it's", "'it'\\''s'"],
    ['$HOME', "'$HOME'"],
    ['', "''"],
  ])('shellQuote(%j)', (input, expected) => {
    expect(shellQuote(input)).toBe(expected);
  });
});
