/**
 * `news mcp --max-points N`: what one run of the server may spend, across
 * every call and every HTTP session. A call reserves its estimate before it
 * sends anything (refused when the estimate exceeds what is left, counting
 * what calls running beside it have reserved), and settles on what the
 * responses say they cost. Prices are the specification's ("Points") and
 * the mock's (docs/MOCK.md).
 */
import type { ApiResponse, RequestSpec } from '../../api/types.js';
import { splitList } from '../../params/values.js';
import { BudgetError } from '../budget-error.js';
import { POINTS_PER_PAGE, PROMPT_POINTS } from '../unattended/budget.js';

/** Endpoints that never cost points. */
const FREE = /^\/(?:ping$|v1\/balance$|v1\/suggest\/|v1\/news\/event-types$)/;
/** What fact-check verifies without `max_claims` (the mock's default; each claim costs a point). */
const DEFAULT_CLAIMS = 5;

/** Points one request will cost at most, before it is sent. */
export function requestCost(spec: RequestSpec): number {
  if (FREE.test(spec.path)) return 0;
  const params = (spec.body ?? spec.query ?? {}) as Record<string, unknown>;
  if (spec.path === '/v1/fact-check') {
    if (params['claim'] !== undefined) return 1;
    const max = Number(params['max_claims'] ?? DEFAULT_CLAIMS);
    return Number.isFinite(max) && max > 0 ? max : DEFAULT_CLAIMS;
  }
  let points = POINTS_PER_PAGE;
  const insights = params['insights'];
  if (spec.path === '/v1/news/local' && typeof insights === 'string') {
    points += splitList(insights).length;
  }
  if (typeof params['prompt'] === 'string') points += PROMPT_POINTS;
  return points;
}

/** What a response says it cost; the estimate when the server is silent, nothing with a test key. */
export function responseCost(response: ApiResponse<unknown>, estimate: number): number {
  const header = response.usage['x-points-used'];
  const used = Number(header);
  if (header !== undefined && Number.isFinite(used)) return used;
  return response.mode === 'test' ? 0 : estimate;
}

export interface Reservation {
  readonly points: number;
}

export class PointsBudget {
  /** Points the session's calls have spent, as the responses said. */
  spent = 0;
  private reserved = 0;
  /** The plan's per_page ceiling, once a response showed it (the service applies it silently). */
  perPageCap: number | undefined;

  constructor(readonly max: number | undefined) {}

  /** What is left for a new call: the budget less what is spent and what running calls hold. */
  get left(): number | undefined {
    return this.max === undefined ? undefined : Math.max(0, this.max - this.spent - this.reserved);
  }

  /** Refuses `points` when they exceed what is left, before anything is sent. */
  check(points: number, what: string): void {
    const left = this.left;
    if (left !== undefined && points > left) {
      throw new BudgetError(
        `refused: ${what} would take about ${points} point${points === 1 ? '' : 's'}, more than the ${left} left of --max-points ${this.max} (${this.spent} spent); nothing was sent`,
        { hint: 'narrow the filters or lower limit; the budget is set when the server starts' },
      );
    }
  }

  /** Holds `points` for a call, or refuses it before anything is sent. */
  reserve(points: number, what: string): Reservation {
    this.check(points, what);
    this.reserved += points;
    return { points };
  }

  /** Gives a reservation back and counts what was really spent. */
  settle(reservation: Reservation, spent: number): void {
    this.reserved = Math.max(0, this.reserved - reservation.points);
    this.spent += spent;
  }

  /** Learns the plan's per_page ceiling from a page: asked for more, got the envelope's `limit`. */
  notePage(asked: number | undefined, envelopeLimit: unknown): void {
    if (typeof envelopeLimit !== 'number' || asked === undefined || envelopeLimit >= asked) return;
    this.perPageCap = Math.min(this.perPageCap ?? envelopeLimit, envelopeLimit);
  }

  /** The `_meta` every result carries. */
  meta(): Record<string, number> {
    const out: Record<string, number> = { points_spent: this.spent };
    if (this.max !== undefined) {
      out['points_budget'] = this.max;
      out['points_left'] = Math.max(0, this.max - this.spent);
    }
    return out;
  }
}
