/**
 * The body of a webhook delivery (spec, Events → Webhook delivery), parsed
 * with zod at the boundary once the signature is known good. Articles are
 * checked only for an id: they are written as the service sent them, and
 * fields the service adds later must pass through.
 */
import { z } from 'zod';

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
  | { ok: true; payload: DeliveryPayload }
  | { ok: false; message: string };

export function parseDelivery(text: string): ParsedDelivery {
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
  return { ok: true, payload: parsed.data };
}
