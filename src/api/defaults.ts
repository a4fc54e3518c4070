/** Defaults of the client, in one place so `--help` texts and docs can quote them. */
export const DEFAULT_BASE_URL = 'https://api.apitube.io';
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** The spec's client guidance: a timeout above 30 seconds. */
export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_RETRIES = 3;
export const DEFAULT_RETRY_BASE_DELAY_MS = 1_000;
export const DEFAULT_MAX_RETRY_DELAY_MS = 30_000;
/**
 * The largest response body read. The largest legitimate answers are a page
 * of 250 full articles (body and body_html: a few MB) and a directory profile
 * (about 170 KB); 64 MB is well above both, and far below what would exhaust
 * memory. `--max-response-mb` raises it.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

export const TEST_MODE_NOTICE =
  'test mode: article text is truncated, counts are capped at 100 and trends values are placeholders; no points are used';
