/**
 * Newly indexed articles, announced to whoever waits for them: open streams
 * now, the webhook dispatcher later. Listeners run synchronously in the order
 * they subscribed; one that throws does not stop the others.
 */
import type { Article } from './fixtures/article-types.js';

export type ArticleListener = (articles: readonly Article[]) => void;

export class ArticleBus {
  private readonly listeners = new Set<ArticleListener>();

  subscribe(listener: ArticleListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  publish(articles: readonly Article[]): void {
    if (articles.length === 0) return;
    for (const listener of [...this.listeners]) {
      try {
        listener(articles);
      } catch (error) {
        // A broken subscriber must not lose the articles for the others.
        process.emitWarning(`mock article listener failed: ${String(error)}`);
      }
    }
  }

  get size(): number {
    return this.listeners.size;
  }
}
