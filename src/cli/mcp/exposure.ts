/**
 * `news mcp --http` off loopback: anyone who can reach the port could spend
 * the key's points, so a token is required (exit 2 before anything starts).
 */
import { UsageError } from '../../api/errors.js';

export const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|::1|\[::1\])$/i;

/** A `--host` off loopback without a token: refused before listening (exit 2). */
export function checkExposure(host: string, token: string | undefined): void {
  if (token === undefined && !LOOPBACK.test(host)) {
    throw new UsageError(
      `--host ${host} is reachable from other machines: it needs --token (or NEWS_MCP_TOKEN)`,
      {
        hint: 'every request must then carry "Authorization: Bearer TOKEN"; or keep the default 127.0.0.1',
      },
    );
  }
}
