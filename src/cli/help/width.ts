/**
 * The width help wraps to: the terminal's; in a pipe, COLUMNS; else 80. One
 * function for commander's path (main.ts) and bin/news.js's (fast.ts).
 */
export function helpWidth(
  stdout: { readonly isTTY?: boolean; readonly columns?: number },
  env: Readonly<Record<string, string | undefined>>,
): number {
  const columns = stdout.isTTY ? stdout.columns : Number(env['COLUMNS']);
  return columns !== undefined && Number.isFinite(columns) && columns > 0 ? columns : 80;
}
