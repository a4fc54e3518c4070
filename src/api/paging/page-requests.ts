/**
 * The requests of one paged run (page-window.ts): pages, the window's probe
 * and counts, the second pass's pages, counted against the run's budget
 * (`maxRequests`, from --max-points) so that none is ever sent past it.
 */
import type { AdaptiveConcurrency } from './concurrency.js';
import type { PaginateOptions, RequestKind, Requester } from './page-types.js';
import type { ApiResponse, RequestSpec } from '../types.js';

export class RunRequests {
  /** Requests sent so far. */
  sent = 0;
  /** Requests promised and not yet sent (the closing count): pages may not take their place. */
  reserved = 0;
  readonly #client: Requester;
  readonly #o: PaginateOptions;
  readonly #concurrency: AdaptiveConcurrency | undefined;

  constructor(
    client: Requester,
    options: PaginateOptions,
    concurrency: AdaptiveConcurrency | undefined,
  ) {
    this.#client = client;
    this.#o = options;
    this.#concurrency = concurrency;
  }

  /** Whether `n` more requests stay within the budget. */
  affordable(n: number): boolean {
    const max = this.#o.maxRequests;
    return max === undefined || this.sent + this.reserved + n <= max;
  }

  /**
   * Sends one request, counted; a 429 or 503 retried on the way tells the
   * concurrency to back off (once per burst: the epoch it was sent in).
   */
  async send(
    spec: RequestSpec,
    kind: RequestKind,
    signal: AbortSignal,
  ): Promise<ApiResponse<unknown>> {
    this.sent += 1;
    const concurrency = this.#concurrency;
    const epoch = concurrency?.epoch ?? 0;
    const response = await this.#client.request<unknown>({
      ...spec,
      signal,
      onRetry: (info) => concurrency?.onRetry(info.status, epoch),
    });
    this.#o.onResponse?.(response, kind);
    return response;
  }
}
