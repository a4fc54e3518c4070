import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The user's cache folder for news: `$XDG_CACHE_HOME/news/`, else
 * `~/.cache/news/`. What is kept there (completion values, code caches) can be
 * lost at any time without losing anything.
 */
export function newsCacheDir(env: Readonly<Record<string, string | undefined>>): string {
  return join(env['XDG_CACHE_HOME'] || join(env['HOME'] || homedir(), '.cache'), 'news');
}
