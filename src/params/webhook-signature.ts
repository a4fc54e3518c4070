/**
 * The webhook signature scheme of the specification (Events → Webhook
 * delivery), declared once: the mock signs with it and `news webhooks
 * verify` / `listen` check with it, so the two cannot drift apart.
 *
 *   X-Webhook-Signature: sha256=<hex HMAC-SHA256(secret, T + "." + raw body)>
 *   X-Webhook-Timestamp: T (Unix seconds when the delivery was sent)
 *
 * node:crypto only. Not on the start-up path: commands import it lazily.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The four X-Webhook-* delivery headers (the fifth is Content-Type), lower-case as node:http presents them. */
export const WEBHOOK_HEADERS = {
  signature: 'x-webhook-signature',
  id: 'x-webhook-id',
  deliveryId: 'x-webhook-delivery-id',
  timestamp: 'x-webhook-timestamp',
} as const;

export const SIGNATURE_PREFIX = 'sha256=';
/** The replay window `verify` and `listen` allow by default, in seconds. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** `sha256=<hex>` for a body sent at `timestamp` (Unix seconds). */
export function signWebhook(
  secret: string,
  timestamp: number | string,
  body: string | Uint8Array,
): string {
  const hmac = createHmac('sha256', secret);
  hmac.update(`${timestamp}.`);
  hmac.update(body);
  return `${SIGNATURE_PREFIX}${hmac.digest('hex')}`;
}

export interface VerifyInput {
  secret: string;
  /** The X-Webhook-Timestamp value as received. */
  timestamp: string | undefined;
  /** The X-Webhook-Signature value as received. */
  signature: string | undefined;
  /** The raw request body, exactly as received. */
  body: string | Uint8Array;
  /** Seconds either side of now; 0 or less turns the timestamp check off. */
  toleranceSeconds: number;
  /** Unix milliseconds; defaults to Date.now(). */
  nowMs?: number;
}

/** Which check failed, for one line of output and tests. */
export type VerifyFailure = 'timestamp-missing' | 'signature-format' | 'stale' | 'mismatch';

export type VerifyResult =
  | { ok: true }
  | { ok: false; check: VerifyFailure; message: string; ageSeconds?: number };

const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;

/**
 * Checks the signature first, then the timestamp window. The comparison is
 * constant time over the decoded digests (timingSafeEqual), so how much of a
 * forged signature matches is not observable.
 */
export function verifyWebhook(input: VerifyInput): VerifyResult {
  const timestamp = input.timestamp?.trim() ?? '';
  if (!/^\d{1,12}$/.test(timestamp)) {
    return {
      ok: false,
      check: 'timestamp-missing',
      message:
        timestamp === ''
          ? 'timestamp missing: the X-Webhook-Timestamp value is required'
          : `timestamp malformed: expected Unix seconds, got "${timestamp.slice(0, 40)}"`,
    };
  }
  const signature = input.signature?.trim() ?? '';
  const hex = signature.startsWith(SIGNATURE_PREFIX)
    ? signature.slice(SIGNATURE_PREFIX.length)
    : '';
  if (!HEX_SHA256.test(hex)) {
    return {
      ok: false,
      check: 'signature-format',
      message: `signature malformed: expected ${SIGNATURE_PREFIX}<64 hex digits>`,
    };
  }
  const expected = Buffer.from(
    signWebhook(input.secret, timestamp, input.body).slice(SIGNATURE_PREFIX.length),
    'hex',
  );
  if (!timingSafeEqual(expected, Buffer.from(hex, 'hex'))) {
    return {
      ok: false,
      check: 'mismatch',
      message:
        'signature mismatch: the body, the timestamp or the secret is not the one that was signed',
    };
  }
  if (input.toleranceSeconds > 0) {
    const nowSeconds = Math.floor((input.nowMs ?? Date.now()) / 1000);
    const age = nowSeconds - Number(timestamp);
    if (Math.abs(age) > input.toleranceSeconds) {
      return {
        ok: false,
        check: 'stale',
        ageSeconds: age,
        message:
          age > 0
            ? `timestamp too old: signed ${age} s ago, tolerance is ${input.toleranceSeconds} s (a replay?)`
            : `timestamp in the future: ${-age} s ahead, tolerance is ${input.toleranceSeconds} s (clock skew?)`,
      };
    }
  }
  return { ok: true };
}
