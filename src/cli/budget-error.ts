import { NewsError } from '../api/errors.js';

/** The export would spend, or has spent, more than --max-points allows (exit 4). */
export class BudgetError extends NewsError {
  override name = 'BudgetError';
}
