/**
 * `-v` reports the points a command used. The server's X-Points-Used /
 * X-Points-Remaining headers say it per response; when a server sends none,
 * the balance is read before the first request and after the last one.
 * Installed once on the client (Runtime), so every command gets it.
 */
import type { NewsClient } from '../api/index.js';
import type { ApiResponse, RequestOptions } from '../api/types.js';

/** Endpoints that never cost points and would only make the report noisier. */
const FREE_PATHS = new Set(['/v1/balance', '/ping']);

export class PointsMeter {
  private used = 0;
  private remaining: number | undefined;
  private sawHeaders = false;
  private metered = 0;
  private testMode = false;
  private before: number | undefined;
  private probe: Promise<void> | undefined;

  /** Routes the client's requests through the meter; `probeBalance` adds the before/after reading. */
  install(client: NewsClient, probeBalance: boolean): void {
    const original = client.request.bind(client) as (
      o: RequestOptions,
    ) => Promise<ApiResponse<unknown>>;
    this.balance = async () => {
      const r = await original({ method: 'GET', path: '/v1/balance' });
      const points = (r.body as { points?: unknown } | null)?.points;
      return typeof points === 'number' ? points : undefined;
    };
    const metered = async (options: RequestOptions): Promise<ApiResponse<unknown>> => {
      const counts = !FREE_PATHS.has(options.path);
      if (counts && probeBalance) {
        this.probe ??= this.balance!().then(
          (p) => {
            this.before = p;
          },
          () => undefined,
        );
        await this.probe;
      }
      const response = await original(options);
      if (counts) this.observe(response);
      return response;
    };
    // The client's overloads differ only in the body type; the meter passes everything through.
    client.request = metered as NewsClient['request'];
  }

  private balance: (() => Promise<number | undefined>) | undefined;

  observe(response: ApiResponse<unknown>): void {
    this.metered += 1;
    if (response.mode === 'test') this.testMode = true;
    const used = Number(response.usage['x-points-used']);
    const remaining = Number(response.usage['x-points-remaining']);
    if (response.usage['x-points-used'] !== undefined && Number.isFinite(used)) {
      this.sawHeaders = true;
      this.used += used;
    }
    if (response.usage['x-points-remaining'] !== undefined && Number.isFinite(remaining)) {
      this.sawHeaders = true;
      this.remaining = remaining;
    }
  }

  /** The line `-v` prints, or undefined when nothing billable was sent. */
  async summary(): Promise<string | undefined> {
    if (this.metered === 0) return undefined;
    const requests = `${this.metered} request${this.metered === 1 ? '' : 's'}`;
    if (this.testMode) return `points: none used (test key; ${requests})`;
    if (this.sawHeaders) {
      const left =
        this.remaining === undefined ? '' : `, ${this.remaining.toLocaleString('en-US')} remaining`;
      return `points: ${this.used.toLocaleString('en-US')} used${left} (${requests})`;
    }
    if (this.before === undefined || this.balance === undefined) {
      return `points: the server reported none (${requests})`;
    }
    const after = await this.balance().catch(() => undefined);
    if (after === undefined)
      return `points: ${this.before.toLocaleString('en-US')} before; balance unreadable after`;
    return `points: ${(this.before - after).toLocaleString('en-US')} used by balance, ${after.toLocaleString('en-US')} remaining (${requests})`;
  }
}
