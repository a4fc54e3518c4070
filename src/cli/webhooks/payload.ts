/**
 * The body of a webhook delivery (spec, Events → Webhook delivery), parsed
 * with zod at the boundary once the signature is known good. Articles are
 * checked only for an id: they are written as the service sent them, and
 * fields the service adds later must pass through.
 */
import { z } from 'zod';
import { articleRanges } from './raw-articles.js';

/**
 * An article: an object with an id. Checked with a predicate, not an object
 * schema: zod copies every key of an object it parses, which cost as much as
 * JSON.parse itself on 100 full articles.
 */
const DeliveredArticle = z.custom<Record<string, unknown> & { id: number | string }>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    (typeof (value as { id?: unknown }).id === 'number' ||
      typeof (value as { id?: unknown }).id === 'string'),
  { message: 'each article must be an object with an id' },
);

export const DeliveryPayload = z.looseObject({
  event: z.string(),
  webhook_id: z.union([z.number().int(), z.string()]),
  delivered_at: z.string().optional(),
  articles: z.array(DeliveredArticle).optional(),
});

export type DeliveryPayload = z.infer<typeof DeliveryPayload>;

/** The one event the specification defines. */
export const ARTICLES_NEW = 'articles.new';

export type ParsedDelivery =
  | {
      ok: true;
      payload: DeliveryPayload;
      /** How many articles the delivery holds. */
      articles: number;
      /** With `raw`: each article's JSON bytes as received (payload.articles is then empty). */
      raw?: Uint8Array[];
    }
  | { ok: false; message: string };

/**
 * Parses a verified body. With `raw` and a compact body, only the envelope is
 * decoded and checked with zod; the articles stay bytes, found by a
 * structural scan (objects, balanced, strings closed), for writing as they
 * came. Decoding 100 full articles was most of listen's time, and the
 * signature already proved the bytes are the service's. Otherwise — or when
 * the scan is unsure — the whole body is decoded and every article checked.
 */
export function parseDelivery(body: Buffer, raw = false): ParsedDelivery {
  if (raw) {
    const found = articleRanges(body);
    if (found !== undefined) {
      const envelope = Buffer.concat([
        body.subarray(0, found.open + 1),
        body.subarray(found.close),
      ]);
      const parsed = check(envelope.toString('utf8'));
      if (!parsed.ok) return parsed;
      return {
        ...parsed,
        articles: found.ranges.length,
        raw: found.ranges.map(([start, end]) => body.subarray(start, end)),
      };
    }
  }
  return check(body.toString('utf8'));
}

function check(text: string): ParsedDelivery {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, message: 'body is not JSON' };
  }
  const parsed = DeliveryPayload.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return {
      ok: false,
      message: `body is not a delivery: ${issue.path.join('.') || 'body'}: ${issue.message}`,
    };
  }
  if (parsed.data.event === ARTICLES_NEW && parsed.data.articles === undefined)
    return { ok: false, message: 'body is not a delivery: articles.new without articles' };
  return { ok: true, payload: parsed.data, articles: parsed.data.articles?.length ?? 0 };
}
