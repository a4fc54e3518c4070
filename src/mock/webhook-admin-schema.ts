/**
 * The body of `POST /__mock/webhooks` (the dashboard's "create webhook"),
 * checked with zod at the boundary: one 400 naming every wrong field, instead
 * of whichever check the store happens to reach first.
 */
import { z } from 'zod';
import { MockHttpError } from './error-envelope.js';

export const CreateWebhookBody = z.object({
  url: z.string().trim().min(1, 'url is required: the http(s) address deliveries are sent to'),
  filters: z
    .record(z.string(), z.unknown(), {
      error: 'filters must be an object of search parameters',
    })
    .optional(),
  api_key: z.string({ error: 'api_key must be one of the mock fixture keys' }),
});

export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

/** Parses the body or throws the 400 the route answers with. */
export function parseCreateWebhook(body: unknown): CreateWebhookBody {
  const parsed = CreateWebhookBody.safeParse(body);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const where = issue.path.join('.');
    return where === '' ? issue.message : `${where}: ${issue.message}`;
  });
  throw new MockHttpError(
    400,
    undefined,
    `Body must be a JSON object {url, filters, api_key}: ${problems.join('; ')}.`,
  );
}
