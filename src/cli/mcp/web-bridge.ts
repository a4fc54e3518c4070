/**
 * node:http to the SDK's web-standard handlers and back: a request's body
 * read with a bound (a larger one is refused, not buffered), the web
 * Request made from it, and a web Response (JSON or an SSE stream) written
 * to the node response as it comes, ended when the client goes away.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The largest request body read: the SDK's own default bound. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export class BodyTooLarge extends Error {}

/** The request's body as text; BodyTooLarge past `max` bytes (the rest is not read). */
/** What a refused body may still send before its connection is cut (read and thrown away). */
const DISCARD_BYTES = 64 * 1024 * 1024;

/**
 * The body as text, at most `max` bytes. A larger one is refused (BodyTooLarge)
 * and the rest of it read and thrown away, so the client hears the 413 rather
 * than a reset in the middle of its upload; past DISCARD_BYTES the connection
 * is cut.
 */
export function readBody(req: IncomingMessage, max = MAX_BODY_BYTES): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    let refused = false;
    const refuse = (): void => {
      refused = true;
      chunks.length = 0;
      reject(new BodyTooLarge());
    };
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > max) refuse();
    req.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (refused) {
        if (length > DISCARD_BYTES) req.socket.destroy();
        return;
      }
      if (length > max) return refuse();
      chunks.push(chunk);
    });
    req.once('end', () => {
      if (!refused) resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.once('error', (error) => {
      if (!refused) reject(error);
    });
  });
}

export function toWebRequest(
  req: IncomingMessage,
  body: string | undefined,
  signal: AbortSignal,
): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  const method = req.method ?? 'GET';
  return new Request(url, {
    method,
    headers,
    signal,
    ...(body !== undefined && method !== 'GET' && method !== 'HEAD' ? { body } : {}),
  });
}

/** Writes a web Response to the node response, streaming its body. */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = name === 'set-cookie' ? response.headers.getSetCookie() : value;
  });
  res.writeHead(response.status, headers);
  // An SSE stream is written event by event; flush the head now.
  res.flushHeaders();
  if (response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const cancel = () => {
    reader.cancel().catch(() => {});
  };
  res.once('close', cancel);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          res.once('drain', resolve);
          res.once('close', resolve);
        });
      }
    }
  } catch {
    // The client went away mid-stream, or the handler closed it: nothing more to write.
  } finally {
    res.off('close', cancel);
    res.end();
  }
}
