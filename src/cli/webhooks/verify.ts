/**
 * `news webhooks verify`: checks one saved delivery offline — the HMAC over
 * `T + "." + body` in constant time, then the timestamp window. Exit 0 with
 * `valid: …` on stdout, or exit 1 with one `error:` line naming the check.
 */
import { readFile } from 'node:fs/promises';
import { NewsError, UsageError } from '../../api/errors.js';
import { fileError } from '../../output/file-errors.js';
import type { CommandInput } from '../command-spec.js';
import type { Runtime } from '../runtime/runtime.js';
import { secretFrom, toleranceFrom } from './options.js';

/** The body exactly as received: bytes, not re-encoded text. */
async function readBody(input: CommandInput, runtime: Runtime): Promise<Buffer> {
  const file = input.args[0];
  if (file !== undefined && file !== '-') {
    try {
      return await readFile(file);
    } catch (error) {
      throw fileError('read', file, error);
    }
  }
  const { stdin } = runtime.io;
  if (file === undefined && stdin.isTTY === true) {
    throw new UsageError('no body to verify: give the raw body as FILE, or pipe it in', {
      hint: 'news webhooks verify --secret S --timestamp T --signature sha256=… body.json',
    });
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stdin)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

export async function verifyDelivery(input: CommandInput, runtime: Runtime): Promise<void> {
  const secret = secretFrom(input.options, runtime.io.env);
  const tolerance = toleranceFrom(input.options);
  const timestamp = input.options['timestamp'];
  const signature = input.options['signature'];
  if (typeof timestamp !== 'string' || typeof signature !== 'string') {
    throw new UsageError('verify needs --timestamp T and --signature sha256=HEX', {
      hint: 'take them from the X-Webhook-Timestamp and X-Webhook-Signature headers',
    });
  }
  const body = await readBody(input, runtime);
  const { verifyWebhook } = await import('../../params/webhook-signature.js');
  const result = verifyWebhook({
    secret,
    timestamp,
    signature,
    body,
    toleranceSeconds: tolerance,
    nowMs: runtime.io.now().getTime(),
  });
  if (!result.ok) throw new NewsError(`invalid: ${result.message}`);
  const age = Math.floor(runtime.io.now().getTime() / 1000) - Number(timestamp);
  await runtime.write(
    tolerance > 0
      ? `valid: signature matches; signed ${age} s ago, within ${tolerance} s\n`
      : 'valid: signature matches (timestamp not checked: --tolerance 0)\n',
  );
}
