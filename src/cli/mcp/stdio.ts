/**
 * MCP over stdio, what desktop clients start: JSON-RPC on stdin and stdout,
 * nothing else on stdout. When stdin ends (the client closed it, or a
 * script piped a few requests in), every request already read is answered
 * first; then the server closes and the command ends, exit 0.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Runtime } from '../runtime/runtime.js';
import type { Session } from './call.js';
import { type Mirror, createMcpServer } from './server.js';

type Id = string | number;

function requestId(message: JSONRPCMessage): Id | undefined {
  return 'method' in message && 'id' in message ? message.id : undefined;
}

function responseId(message: JSONRPCMessage): Id | undefined {
  return !('method' in message) && 'id' in message ? (message.id as Id) : undefined;
}

export async function serveStdio(
  session: Session,
  runtime: Runtime,
  mirror: Mirror,
): Promise<void> {
  const { stdin, stdout } = runtime.io;
  const server = createMcpServer(session, mirror);
  const transport = new StdioServerTransport(stdin, stdout);
  const pending = new Set<Id>();
  let ended = false;
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const settleIfDone = () => {
    if (ended && pending.size === 0) stop();
  };

  const onEnd = () => {
    ended = true;
    settleIfDone();
  };
  stdin.once('end', onEnd);
  stdin.once('close', onEnd);
  await server.connect(transport);
  // Wrapped after connect, which installs the SDK's own handlers.
  const receive = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    const id = requestId(message);
    if (id !== undefined) pending.add(id);
    // A cancelled request gets no answer: nothing to wait for.
    if ('method' in message && message.method === 'notifications/cancelled') {
      const cancelled = (message.params as { requestId?: Id } | undefined)?.requestId;
      if (cancelled !== undefined) pending.delete(cancelled);
    }
    receive?.(message);
    settleIfDone();
  };
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage) => {
    await send(message);
    const id = responseId(message);
    if (id !== undefined) {
      pending.delete(id);
      settleIfDone();
    }
  };
  if (stdin.readableEnded) onEnd();
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
    stdin.off('end', onEnd);
    stdin.off('close', onEnd);
    await server.close();
  }
}
