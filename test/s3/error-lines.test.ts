/** How a store's answer becomes the one error line (src/output/s3/errors.ts), answer by answer. */
import { describe, expect, it } from 'vitest';
import { describeFailure } from '../../src/cli/exit-codes.js';
import { storeError } from '../../src/output/s3/errors.js';

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
});
