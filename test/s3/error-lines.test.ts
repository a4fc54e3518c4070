/** How a store's answer becomes the one error line (src/output/destinations/s3/errors.ts), answer by answer. */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeFailure } from '../../src/cli/exit-codes.js';
import { storeError } from '../../src/output/destinations/s3/errors.js';
import { checkBucket } from '../../src/output/destinations/s3/objects.js';
import { runCli } from '../helpers/cli.js';

const URL = 's3://acme-news/en/data.parquet';
const answer = (name: string, status: number, extra: object = {}) =>
  Object.assign(new Error('from the SDK'), {
    name,
    Code: name,
    $metadata: { httpStatusCode: status, requestId: 'REQ123' },
    ...extra,
  });

async function lines(error: unknown): Promise<{ exitCode: number; text: string }> {
  const failure = describeFailure(await storeError(error, 'write', URL), false);
  return { exitCode: failure.exitCode, text: failure.lines.join('\n') };
}

describe('store errors as lines', () => {
  it('a wrong region names the region to set', async () => {
    const r = await lines(answer('AuthorizationHeaderMalformed', 400, { Region: 'eu-west-1' }));
    expect(r.exitCode).toBe(1);
    expect(r.text).toBe(
      `error: cannot write ${URL}: the bucket acme-news is in another region (HTTP 400, AuthorizationHeaderMalformed, request id REQ123)\nhint: set AWS_REGION=eu-west-1`,
    );
  });

  it('SlowDown after the retries: exit 1, nothing partial', async () => {
    const r = await lines(answer('SlowDown', 503));
    expect(r.exitCode).toBe(1);
    expect(r.text).toMatch(
      /the store failed 5 attempts \(HTTP 503, SlowDown, request id REQ123\)\nhint: nothing partial is visible/,
    );
  });

  it('an expired token is a permission error (exit 3)', async () => {
    const r = await lines(answer('ExpiredToken', 400));
    expect(r.exitCode).toBe(3);
    expect(r.text).toMatch(/refused the credentials.*\nhint: .*aws sso login/);
  });

  it('free text from the SDK loses any credential value in it', async () => {
    process.env['AWS_SECRET_ACCESS_KEY'] = 'sekrit-value-1234567890';
    try {
      const r = await lines(new Error('signing failed with sekrit-value-1234567890 in hand'));
      expect(r.exitCode).toBe(1);
      expect(r.text).toContain('signing failed with *** in hand');
      expect(r.text).not.toContain('sekrit-value');
    } finally {
      delete process.env['AWS_SECRET_ACCESS_KEY'];
    }
  });

  it("docs/CRON.md's example is what a missing bucket on AWS prints", async () => {
    const docs = readFileSync(
      fileURLToPath(new globalThis.URL('../../docs/CRON.md', import.meta.url)),
      'utf8',
    );
    const example =
      /\n {2}```\n {2}(error: cannot write s3:\/\/acme-news\/[^\n]*\n {2}hint: [^\n]*)\n {2}```/
        .exec(docs)![1]!
        .replace(/\n {2}/g, '\n');
    const id = /request id (\w+)\)/.exec(example)![1]!;
    const saved = { s3: process.env['AWS_ENDPOINT_URL_S3'], any: process.env['AWS_ENDPOINT_URL'] };
    delete process.env['AWS_ENDPOINT_URL_S3'];
    delete process.env['AWS_ENDPOINT_URL'];
    try {
      const r = await lines(
        Object.assign(new Error(), {
          name: 'NoSuchBucket',
          $metadata: { httpStatusCode: 404, requestId: id },
        }),
      );
      expect(r.text).toBe(example);
    } finally {
      if (saved.s3 !== undefined) process.env['AWS_ENDPOINT_URL_S3'] = saved.s3;
      if (saved.any !== undefined) process.env['AWS_ENDPOINT_URL'] = saved.any;
    }
  });

  it("the bucket check keeps the store's request id (a HEAD answer has no body to carry the code)", async () => {
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(404, { 'x-amz-request-id': '4F2A9C1B7E3D5A60' }).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const set = {
      AWS_ENDPOINT_URL_S3: endpoint,
      AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'example-secret',
      AWS_REGION: 'us-east-1',
    };
    // The keys are put back one by one: a plain object in place of process.env
    // would leave the real environment (TMPDIR, what os.tmpdir() reads) behind
    // for the files that run next in this process.
    const saved = Object.fromEntries(Object.keys(set).map((k) => [k, process.env[k]]));
    Object.assign(process.env, set);
    try {
      const error = await checkBucket('s3://acme-news/en/data.parquet').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(describeFailure(error, false).lines).toEqual([
        'error: cannot write s3://acme-news/en/data.parquet: the bucket acme-news does not exist (HTTP 404, NoSuchBucket, request id 4F2A9C1B7E3D5A60)',
        `hint: create it on ${endpoint}, or check the name`,
      ]);
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      server.close();
    }
  });

  it('--log-file in a store is refused in plain words (exit 2)', async () => {
    const r = await runCli(['search', '--mock', '--log-file', 's3://acme-news/news.log']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: --log-file cannot be in a store (s3://acme-news/news.log): each run adds a line at the end of the log, and an object in a store can only be replaced whole\nhint: write the log to a local file, e.g. --log-file news.log\n',
    );
  });
});
