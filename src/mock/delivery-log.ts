/**
 * The webhook delivery log behind `GET /__mock/deliveries`: one entry per
 * attempt, written by the dispatcher (webhook-dispatcher.ts). It keeps the
 * newest MAX_DELIVERY_LOG attempts, so a mock left running for days with a
 * subscription holds a bounded log.
 */

/** Attempts kept; older ones are dropped from the log (docs/MOCK.md). */
export const MAX_DELIVERY_LOG = 10_000;

export type DeliveryOutcome = 'delivered' | 'retry_scheduled' | 'failed';

export interface DeliveryAttempt {
  /** Same for every attempt of one batch (the X-Webhook-Delivery-Id header). */
  delivery_id: string;
  webhook_id: number;
  /** 1 to 5. */
  attempt: number;
  /** When the attempt was sent, mock clock, ISO 8601. */
  sent_at: string;
  /** The receiver's HTTP status, or null when it did not answer (timeout, refused). */
  status: number | null;
  outcome: DeliveryOutcome;
  /** Why it failed (`timeout`, `HTTP 500`, `ECONNREFUSED`), null when delivered. */
  error: string | null;
  duration_ms: number;
  article_ids: number[];
  /** When the next attempt is due, for `retry_scheduled`; otherwise null. */
  next_attempt_at: string | null;
  /** Points charged for the delivered articles (0 for test keys and failures). */
  points: number;
}

export class DeliveryLog {
  private entries: DeliveryAttempt[] = [];
  /** Entries before this index are dropped (the array is cut now and then, not per entry). */
  private head = 0;

  constructor(private readonly max = MAX_DELIVERY_LOG) {}

  record(entry: DeliveryAttempt): void {
    this.entries.push(entry);
    if (this.entries.length - this.head > this.max) this.head++;
    if (this.head >= this.max) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }

  /** Oldest first; optionally one subscription's. */
  list(webhookId?: number): DeliveryAttempt[] {
    const kept = this.entries.slice(this.head);
    return webhookId === undefined ? kept : kept.filter((e) => e.webhook_id === webhookId);
  }

  get size(): number {
    return this.entries.length - this.head;
  }
}
