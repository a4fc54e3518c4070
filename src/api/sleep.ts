import { InterruptedError } from './errors.js';

/** A timer that an AbortSignal can cut short (Ctrl-C during a backoff wait). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new InterruptedError('interrupted'));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new InterruptedError('interrupted'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
