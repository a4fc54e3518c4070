/**
 * A one-slot hand-over of pages from a producer to an async-iterating
 * consumer (exportRecords). `push` resolves once the consumer has taken the
 * page, so the producer never runs ahead by more than a page per consumer.
 */
import type { ApiRecord } from '../../output/types.js';

type Waiter = (result: IteratorResult<ApiRecord[]>) => void;

export class PageChannel implements AsyncIterable<ApiRecord[]> {
  private slot: { page: ApiRecord[]; taken: () => void } | undefined;
  private waiter: { resolve: Waiter; reject: (e: unknown) => void } | undefined;
  private closed = false;
  private failure: { error: unknown } | undefined;

  push(page: ApiRecord[]): Promise<void> {
    if (this.closed || this.failure) return Promise.resolve();
    return new Promise((taken) => {
      const waiter = this.waiter;
      if (waiter !== undefined) {
        this.waiter = undefined;
        waiter.resolve({ done: false, value: page });
        taken();
      } else {
        this.slot = { page, taken };
      }
    });
  }

  /** No more pages: the consumer finishes and commits. */
  close(): void {
    this.closed = true;
    this.release();
  }

  /** The producer failed: the consumer's next read throws, so it aborts its file. */
  fail(error: unknown): void {
    this.failure = { error };
    this.release();
  }

  private release(): void {
    const slot = this.slot;
    this.slot = undefined;
    slot?.taken();
    const waiter = this.waiter;
    this.waiter = undefined;
    if (waiter === undefined) return;
    if (this.failure) waiter.reject(this.failure.error);
    else waiter.resolve({ done: true, value: undefined });
  }

  [Symbol.asyncIterator](): AsyncIterator<ApiRecord[]> {
    return {
      next: () => {
        if (this.failure) return Promise.reject(this.failure.error);
        const slot = this.slot;
        if (slot !== undefined) {
          this.slot = undefined;
          slot.taken();
          return Promise.resolve({ done: false, value: slot.page });
        }
        if (this.closed) return Promise.resolve({ done: true, value: undefined });
        return new Promise((resolve, reject) => {
          this.waiter = { resolve, reject };
        });
      },
      return: () => {
        // The consumer stopped (a failed write): take nothing more.
        this.closed = true;
        this.slot?.taken();
        this.slot = undefined;
        return Promise.resolve({ done: true, value: undefined });
      },
    };
  }
}
