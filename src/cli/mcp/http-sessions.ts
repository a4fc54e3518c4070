/**
 * The HTTP sessions of `news mcp --http`: each is closed once it has been
 * idle for IDLE_MS (no request open, none for that long), so a client that
 * vanishes without its DELETE does not hold a server forever. A session with
 * a request open (a tool call running, the client's GET stream) is never
 * idle. A request naming a session that is not (or no longer) here gets 404,
 * which tells an MCP client to initialize a new one.
 */

/** Idle time after which a session is closed. */
export const IDLE_MS = 30 * 60_000;

interface Entry<T> {
  readonly value: T;
  open: number;
  lastSeen: number;
}

export class HttpSessions<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly close: (value: T) => Promise<void>,
    private readonly now: () => number = Date.now,
  ) {}

  add(id: string, value: T): void {
    this.entries.set(id, { value, open: 0, lastSeen: this.now() });
  }

  get(id: string): T | undefined {
    return this.entries.get(id)?.value;
  }

  delete(id: string): void {
    this.entries.delete(id);
  }

  /** A request of the session begins; call the returned function when it has ended. */
  begin(id: string): () => void {
    const entry = this.entries.get(id);
    if (entry === undefined) return () => {};
    entry.open++;
    entry.lastSeen = this.now();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      entry.open--;
      entry.lastSeen = this.now();
    };
  }

  /** Closes the sessions idle for IDLE_MS; returns how many. */
  async sweep(): Promise<number> {
    const cutoff = this.now() - IDLE_MS;
    const idle = [...this.entries].filter(([, e]) => e.open === 0 && e.lastSeen <= cutoff);
    for (const [id, entry] of idle) {
      this.entries.delete(id);
      await this.close(entry.value).catch(() => {});
    }
    return idle.length;
  }

  /** Closes every session (the server stops). */
  async closeAll(): Promise<void> {
    const all = [...this.entries.values()];
    this.entries.clear();
    for (const entry of all) await this.close(entry.value).catch(() => {});
  }

  get size(): number {
    return this.entries.size;
  }
}
