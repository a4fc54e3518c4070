/**
 * A store that refuses: one `error:` line naming the bucket and key with the
 * store's code and a hint, the contract's exit code, no object left, no
 * credential in any output (`-v` included), and no stray SDK warning. The
 * built binary runs in its own process, with only the environment given here.
 */
import { describe, expect, it } from 'vitest';
import { BIN, runToEnd } from '../helpers/spawn.js';
import { useMockAndStore } from './store.js';

const NOW = new Date('2026-11-20T12:00:00Z');
const KEY_ID = 'AKIAEXAMPLEWRONGID77';
const SECRET = 'wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY';
const s3 = useMockAndStore({ now: NOW });

/** The child's environment: nothing of ours but what a user would set. */
function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  const { PATH, HOME } = process.env;
  return { PATH, HOME, ...extra };
}

const news = (output: string, extra: Record<string, string>, ...flags: string[]) =>
  runToEnd(
    process.execPath,
    [
      BIN,
      'search',
      '--base-url',
      s3.mock.url,
      '--api-key',
      'api_live_mock_pro',
      '--published-at-start',
      '2026-11-19',
      '-o',
      output,
      ...flags,
    ],
    env(extra),
  );

function oneError(stderr: string): string {
  const errors = stderr.split('\n').filter((l) => l.startsWith('error: '));
  expect(errors, stderr).toHaveLength(1);
  expect(stderr).toMatch(/^hint: /m);
  expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
  return errors[0]!;
}

describe('store errors', () => {
  it('a missing bucket: exit 1, before a page is fetched', async () => {
    const r = await news('s3://no-such-bucket/x/out.parquet', s3.store.env);
    expect(r.code).toBe(1);
    const line = oneError(r.stderr);
    expect(line).toContain('s3://no-such-bucket/x/out.parquet');
    expect(line).toContain('NoSuchBucket');
    expect(r.stderr).toMatch(/hint: create it on http:\/\/127\.0\.0\.1/);
  });

  it('access denied: exit 3, names the key and the code, nothing at the key', async () => {
    s3.store.setFault((op) => (op === 'PutObject' ? '403' : undefined));
    try {
      const r = await news(`s3://${s3.store.bucket}/denied/out.csv`, s3.store.env, '-v');
      expect(r.code).toBe(3);
      const line = oneError(r.stderr);
      expect(line).toContain(`s3://${s3.store.bucket}/denied/out.csv`);
      expect(line).toMatch(/AccessDenied/);
      expect(line).toMatch(/HTTP 403/);
      expect(await s3.reader.exists('denied/out.csv')).toBe(false);
    } finally {
      s3.store.setFault(undefined);
    }
  });

  it('wrong credentials: exit 3, and neither the key id nor the secret is printed, even with -v', async () => {
    const r = await news(
      `s3://${s3.store.bucket}/creds/out.csv`,
      // s3rver checks the key id (its answer echoes it) but not SigV4 signatures.
      { ...s3.store.env, AWS_ACCESS_KEY_ID: KEY_ID, AWS_SECRET_ACCESS_KEY: SECRET },
      '-v',
    );
    expect(r.code).toBe(3);
    const line = oneError(r.stderr);
    expect(line).toMatch(/SignatureDoesNotMatch|InvalidAccessKeyId/);
    for (const secret of [KEY_ID, SECRET, SECRET.slice(0, 12)]) {
      expect(`${r.stdout}${r.stderr}`).not.toContain(secret);
    }
  });

  it('an unreachable endpoint: exit 5 with the endpoint in the hint', async () => {
    const r = await news(`s3://${s3.store.bucket}/x.csv`, {
      ...s3.store.env,
      AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9',
    });
    expect(r.code).toBe(5);
    const line = oneError(r.stderr);
    expect(line).toContain(`s3://${s3.store.bucket}/x.csv`);
    expect(r.stderr).toContain('AWS_ENDPOINT_URL_S3 (now http://127.0.0.1:9)');
  }, 60_000);

  it('no credentials anywhere: one line saying so', async () => {
    const r = await news(`s3://${s3.store.bucket}/x.csv`, {
      AWS_ENDPOINT_URL_S3: s3.store.url,
      AWS_REGION: 'us-east-1',
      AWS_CONFIG_FILE: '/nonexistent',
      AWS_SHARED_CREDENTIALS_FILE: '/nonexistent',
      AWS_EC2_METADATA_DISABLED: 'true',
    });
    expect(r.code).toBe(1);
    expect(oneError(r.stderr)).toMatch(/no usable AWS credentials/);
  }, 60_000);

  it('a successful upload prints no SDK warning (its Node-version notice is off)', async () => {
    const r = await news(`s3://${s3.store.bucket}/quiet/out.jsonl`, s3.store.env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/Warning|NodeVersion/);
    expect(r.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('note: '))).toEqual([]);
  });
});
