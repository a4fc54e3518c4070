/**
 * The stdio wire (line-transport.ts), in process: lines split anywhere
 * (inside a UTF-8 character too) are read whole, a line over the limit is
 * skipped and refused without stopping the next, the requests read before
 * stdin ends are answered before the transport closes, and params of the
 * wrong shape are refused naming the argument.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LineTransport } from '../../src/cli/mcp/line-transport.js';
import { paramsProblem } from '../../src/cli/mcp/params-check.js';

function wire(max?: number) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const notes: string[] = [];
  const transport = new LineTransport(stdin, stdout, (m) => notes.push(m), max);
  const received: unknown[] = [];
  transport.onmessage = (m) => received.push(m);
  let closed = false;
  transport.onclose = () => {
    closed = true;
  };
  const written = () =>
    String(stdout.read() ?? '')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { stdin, transport, received, notes, written, closed: () => closed };
}

describe('LineTransport', () => {
  it('reads a message split across chunks, inside a UTF-8 character too', async () => {
    const w = wire();
    await w.transport.start();
    const line = Buffer.from(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'x', params: { q: 'café' } })}\n`,
    );
    const cut = line.indexOf(0xc3) + 1;
    w.stdin.write(line.subarray(0, cut));
    w.stdin.write(line.subarray(cut));
    await new Promise((r) => setImmediate(r));
    expect(w.received).toEqual([{ jsonrpc: '2.0', id: 1, method: 'x', params: { q: 'café' } }]);
  });

  it('skips a line over the limit, says so, and reads the next', async () => {
    const w = wire(64);
    await w.transport.start();
    w.stdin.write(`{"jsonrpc":"2.0","id":1,"method":"x","params":{"q":"${'y'.repeat(50)}`);
    w.stdin.write(`${'z'.repeat(100)}"}}\n`);
    w.stdin.write('{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    await new Promise((r) => setImmediate(r));
    expect(w.received).toEqual([{ jsonrpc: '2.0', id: 2, method: 'ping' }]);
    const [refusal] = w.written();
    expect(refusal).toMatchObject({ id: null, error: { code: -32600 } });
    expect(w.notes[0]).toMatch(/longer than 64 bytes/);
  });

  it('answers what it read before stdin ended, then closes', async () => {
    const w = wire();
    await w.transport.start();
    w.stdin.end('{"jsonrpc":"2.0","id":7,"method":"slow"}\n');
    await new Promise((r) => setImmediate(r));
    expect(w.received).toHaveLength(1);
    expect(w.closed()).toBe(false);
    await w.transport.send({ jsonrpc: '2.0', id: 7, result: {} });
    expect(w.closed()).toBe(true);
  });
});

describe('paramsProblem', () => {
  it('names the argument of the wrong shape', () => {
    expect(paramsProblem('tools/call', { name: 'search_news', arguments: [] })).toBe(
      'Invalid params: params.arguments must be an object (got an array)',
    );
    expect(paramsProblem('tools/call', { arguments: {} })).toBe(
      'Invalid params: tools/call needs params.name',
    );
    expect(paramsProblem('resources/read', { uri: 3 })).toMatch(/params\.uri must be a string/);
    expect(paramsProblem('tools/call', { name: 'x', arguments: { a: 1 } })).toBeUndefined();
    expect(paramsProblem('ping', 'anything')).toBeUndefined();
  });
});
