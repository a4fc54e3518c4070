/**
 * What the session knows of one transaction while it is under way: what
 * its end acts on, and how far it got, which the next transaction, made
 * while this one is still answered, goes by (session.ts, transaction()).
 */
import type { Unasked } from './new-ids.js';

/** What a transaction under way has done that its end acts on. */
export interface Transaction extends Unasked {
  /** Tables it made: given statistics once it commits. */
  made: string[];
  /** Making its statements; its COMMIT sent, not yet answered; in; or failed (its failure being dealt with). */
  status: 'making' | 'sent' | 'done' | 'failed';
  /** Its caller has its outcome. */
  over: boolean;
  /** Settles when it is first past making its statements (sent, or failed). */
  beyondMaking: Promise<void>;
  leaveMaking: () => void;
}

export function newTransaction(): Transaction {
  let leaveMaking!: () => void;
  const beyondMaking = new Promise<void>((resolve) => {
    leaveMaking = resolve;
  });
  return {
    made: [],
    unasked: undefined,
    status: 'making',
    over: false,
    beyondMaking,
    leaveMaking,
  };
}
