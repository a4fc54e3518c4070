/**
 * `-v` reports the points a command used. The server's X-Points-Used /
 * X-Points-Remaining headers say it per response; when a server sends none, the
 * balance read before the first request is compared with the one after the last.
 * Fed by the client's onResponse hook (Runtime), so every command gets it.
 */
import type { ApiResponse, RequestSpec } from '../../api/types.js';
import { thousands } from '../../output/text.js';

/** Endpoints that never cost points and would only make the report noisier. */
const FREE_PATHS = new Set(['/v1/balance', '/ping']);

export class PointsMeter {
  private used = 0;
  private remaining: number | undefined;
  private sawHeaders = false;
  private metered = 0;
  private testMode = false;
  private before: number | undefined;

  constructor(private readonly readBalance: () => Promise<number | undefined>) {}

  /** Reads the balance before anything billable is sent, in case the server sends no points headers. */
  async start(): Promise<void> {
    this.before = await this.readBalance().catch(() => undefined);
  }

  observe(response: ApiResponse<unknown>, request: RequestSpec): void {
    if (FREE_PATHS.has(request.path)) return;
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
      const left = this.remaining === undefined ? '' : `, ${thousands(this.remaining)} remaining`;
      return `points: ${thousands(this.used)} used${left} (${requests})`;
    }
    if (this.before === undefined) return `points: the server reported none (${requests})`;
    const after = await this.readBalance().catch(() => undefined);
    if (after === undefined) {
      return `points: ${thousands(this.before)} before; balance unreadable after`;
    }
    return `points: ${thousands(this.before - after)} used by balance, ${thousands(after)} remaining (${requests})`;
  }
}
