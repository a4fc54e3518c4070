/**
 * MCP over stdio, what desktop clients start: JSON-RPC on stdin and stdout,
 * nothing else on stdout. The SDK's serveStdio picks the connection's era
 * from its first message (`server/discover` or a request carrying the
 * 2026-07-28 `_meta` envelope: that revision; `initialize`: the 2025 era) and
 * pins one server instance to it. The wire is line-transport.ts (hostile
 * lines answered, stdin's end drained). When stdin ends, every request
 * already read is answered first; then the server closes and the command
 * ends, exit 0.
 */
import { serveStdio as serveSdkStdio } from '@modelcontextprotocol/server/stdio';
import type { Runtime } from '../runtime/runtime.js';
import type { Session } from './call.js';
import { LineTransport } from './line-transport.js';
import { type Mirror, createMcpServer } from './server.js';

export async function serveStdio(
  session: Session,
  runtime: Runtime,
  mirror: Mirror,
): Promise<void> {
  const { stdin, stdout } = runtime.io;
  const transport = new LineTransport(stdin, stdout, (message) => mirror('warning', message));
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const handle = serveSdkStdio(() => createMcpServer(session, mirror), {
    transport,
    // The SDK's own reports (a message it could not route): stderr with -v, never a stack.
    onerror: (error) => mirror('debug', `MCP: ${error.message}`),
  });
  // serveStdio owns the transport's onclose; chained after it is set.
  const closed = transport.onclose;
  transport.onclose = () => {
    closed?.();
    stop();
  };
  const onAbort = () => stop();
  runtime.signal.addEventListener('abort', onAbort, { once: true });
  if (runtime.signal.aborted) stop();
  try {
    await stopped;
  } finally {
    runtime.signal.removeEventListener('abort', onAbort);
    await handle.close();
  }
}
