/**
 * `news mcp --http` closes sessions idle for 30 minutes (http-sessions.ts):
 * never one with a request open (a tool call, the client's GET stream), and
 * idle time counts from a session's last request.
 */
import { describe, expect, it } from 'vitest';
import { HttpSessions, IDLE_MS } from '../../src/cli/mcp/http-sessions.js';

function table() {
  let now = 1_000_000;
  const closed: string[] = [];
  const sessions = new HttpSessions<string>(
    async (value) => {
      closed.push(value);
    },
    () => now,
  );
  return { sessions, closed, advance: (ms: number) => (now += ms) };
}

describe('HttpSessions', () => {
  it('closes a session idle for IDLE_MS, and only then', async () => {
    const { sessions, closed, advance } = table();
    sessions.add('a', 'A');
    advance(IDLE_MS - 1);
    expect(await sessions.sweep()).toBe(0);
    advance(1);
    expect(await sessions.sweep()).toBe(1);
    expect(closed).toEqual(['A']);
    expect(sessions.get('a')).toBeUndefined();
  });

  it('never closes a session with a request open; idle time starts when the last ends', async () => {
    const { sessions, closed, advance } = table();
    sessions.add('a', 'A');
    const end = sessions.begin('a');
    advance(IDLE_MS * 3);
    expect(await sessions.sweep()).toBe(0);
    end();
    end(); // a second close event of the same request counts once
    advance(IDLE_MS - 1);
    expect(await sessions.sweep()).toBe(0);
    advance(1);
    expect(await sessions.sweep()).toBe(1);
    expect(closed).toEqual(['A']);
  });

  it('a request keeps a session alive; closeAll closes the rest', async () => {
    const { sessions, closed, advance } = table();
    sessions.add('a', 'A');
    sessions.add('b', 'B');
    advance(IDLE_MS - 10);
    sessions.begin('b')();
    advance(10);
    expect(await sessions.sweep()).toBe(1);
    expect(closed).toEqual(['A']);
    expect(sessions.get('b')).toBe('B');
    await sessions.closeAll();
    expect(closed).toEqual(['A', 'B']);
    expect(sessions.size).toBe(0);
  });
});
