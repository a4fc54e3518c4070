/**
 * Where news keeps the user's files, per the XDG base directories. Light (no
 * module of the program's) so that the Tab path and the start-up loader can
 * use it too.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The user's cache folder for news: `$XDG_CACHE_HOME/news/`, else
 * `~/.cache/news/`. What is kept there (completion values, code caches, the
 * mock's grown data sets) can be lost at any time without losing anything.
 */
export function newsCacheDir(env: Env): string {
  return join(env['XDG_CACHE_HOME'] || join(env['HOME'] || homedir(), '.cache'), 'news');
}

/** `$XDG_CONFIG_HOME/news/config.json`, else `~/.config/news/config.json`. */
export function configPath(env: Env): string {
  return join(
    env['XDG_CONFIG_HOME'] || join(env['HOME'] || homedir(), '.config'),
    'news',
    'config.json',
  );
}
