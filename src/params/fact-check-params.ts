import { paramsOf } from './types.js';

/**
 * Request body of `POST /v1/fact-check` (spec/openapi.json): one input, an
 * article `id` (priority over the others), raw `text` or a single `claim`,
 * and two caps. Shared by `news fact-check` and, for the lengths, the mock.
 */
const f = paramsOf('Text');

export const FACT_CHECK_PARAMS = [
  f('id', 'integer', 'fact-check this article (loaded from the corpus)', { min: 1 }),
  f('text', 'string', 'raw article text (title and body); claims are extracted', {
    minLength: 100,
    maxLength: 10_000,
  }),
  f('claim', 'string', 'one factual statement to verify', { minLength: 5, maxLength: 500 }),
  f('max_claims', 'integer', 'most claims to extract and verify (capped by the service)', {
    min: 1,
  }),
  f('evidence_per_claim', 'integer', 'most evidence articles per claim (capped by the service)', {
    min: 1,
  }),
] as const;
