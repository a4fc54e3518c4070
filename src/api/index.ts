/**
 * The API client as a library. Cheap to import: undici is loaded on the first
 * request, so commands that never talk to the API (`--help`, `convert`) do not pay for it.
 */
export { apiKeyProblem, checkApiKey, trimApiKey } from './api-key.js';
export { NewsClient, createClient } from './client.js';
export * from './defaults.js';
export type { RequestDescription } from './describe-request.js';
export { shellQuote } from './describe-request.js';
export * from './errors.js';
export type {
  Envelope,
  Page,
  PageRequest,
  PaginateOptions,
  PagingEvent,
  Requester,
  RequestKind,
  WindowPin,
} from './paging/page-types.js';
export type { ConcurrencyChange } from './paging/concurrency.js';
export { DEFAULT_MAX, DEFAULT_START, MAX_CONCURRENCY } from './paging/concurrency.js';
export { paginate } from './paging/paginate.js';
export { REDACTED, redactText, redactUrl, serverText } from './redact.js';
export type { Transport, RawResponse, DispatcherKind } from './transport.js';
export { dispatcherKindFor, proxySettings } from './transport.js';
export type * from './types.js';
