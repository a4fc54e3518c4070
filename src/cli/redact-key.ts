/**
 * How a key is shown when the user must recognise which one is in use (`balance`,
 * `config list`): the mode prefix and the last four characters, never the secret.
 */
export function redactKey(key: string): string {
  const prefix = key.match(/^api_(live|test)_/)?.[0] ?? '';
  if (key.length <= prefix.length + 8) return `${prefix}****`;
  return `${prefix}****${key.slice(-4)}`;
}
