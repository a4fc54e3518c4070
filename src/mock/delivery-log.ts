/**
 * The webhook delivery log behind `GET /__mock/deliveries`: one entry per
 * attempt, written by the dispatcher (webhook-dispatcher.ts). Unbounded: a
 * mock runs for a test or a session, and the log is what tests inspect.
 */

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
  private readonly entries: DeliveryAttempt[] = [];

  record(entry: DeliveryAttempt): void {
    this.entries.push(entry);
  }

  /** Oldest first; optionally one subscription's. */
  list(webhookId?: number): DeliveryAttempt[] {
    return webhookId === undefined
      ? [...this.entries]
      : this.entries.filter((e) => e.webhook_id === webhookId);
  }

  get size(): number {
    return this.entries.length;
  }
}
