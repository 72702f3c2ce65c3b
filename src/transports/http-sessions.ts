// The HTTP transport's session table: which MCP sessions are open, which are in use, which may go.
// A session is busy while a request is in flight or a stream (an SSE GET) is open; busy sessions
// are never evicted. Idle ones go after `idleMs`; one that was initialized and then never used
// again (a bare `initialize` POST) goes after `unusedGraceMs`. A client that hung up on its stream
// (an MCP client holds its GET stream open for as long as it runs) and sent nothing since has gone
// away: its session goes after `goneGraceMs`, the time a client that only lost the connection takes
// to reconnect. When the table is full, the least recently used session that is not busy makes room
// (issue 11, item 10).

export type SessionEndReason = 'deleted' | 'closed' | 'idle' | 'unused' | 'gone' | 'evicted' | 'shutdown';

/** How a request or stream of the session ended: read to its end, or cut off by the client. */
export type ReleaseHow = 'ended' | 'hung up';

/** What the table knows of a session now. */
export interface SessionState<T> {
  id: string;
  value: T;
  createdAt: number;
  lastSeen: number;
  /** Requests in flight plus open streams. */
  busy: number;
  /** active: busy; idle: used, nothing open; unused: initialized only; gone: the client hung up and has not come back. */
  state: 'active' | 'idle' | 'unused' | 'gone';
  /** When the session ends unless the client comes back (none while it is active). */
  endsAt?: number;
}

export interface SessionTableOptions<T> {
  maxSessions: number;
  idleMs: number;
  unusedGraceMs: number;
  /** How long a session whose client hung up waits for it to come back (default `unusedGraceMs`). */
  goneGraceMs?: number;
  /** Ends the session's own resources (server, transport). */
  close(value: T): Promise<void>;
  onEnd?(id: string, reason: SessionEndReason): void;
  /** Milliseconds clock; tests pass a fake one. */
  now?: () => number;
}

export interface SessionTable<T> {
  readonly size: number;
  /** Adds a session, busy with its initialize request until `release` is called. */
  create(id: string, value: T): { release: (how?: ReleaseHow) => void };
  get(id: string): T | undefined;
  /** Marks the session used and busy; call `release` when the request's response has ended (or the client hung up on it). */
  touch(id: string): { value: T; release: (how?: ReleaseHow) => void } | undefined;
  /** Every open session and its state, the oldest first. */
  list(): SessionState<T>[];
  delete(id: string, reason: SessionEndReason): Promise<void>;
  /** Ends idle and never-used sessions that are not busy. */
  evictStale(): void;
  /** Makes sure one more session fits: stale ones first, then the least recently used idle one. False when every session is busy. */
  makeRoom(): boolean;
  closeAll(): Promise<void>;
}

interface Entry<T> {
  value: T;
  createdAt: number;
  lastSeen: number;
  /** A request after the initialize one has arrived. */
  used: boolean;
  /** Requests in flight plus open streams. */
  busy: number;
  /** The client hung up on a request or stream and has sent nothing since. */
  hungUp: boolean;
}

export function createSessionTable<T>(options: SessionTableOptions<T>): SessionTable<T> {
  const entries = new Map<string, Entry<T>>();
  const now = options.now ?? Date.now;
  const goneGraceMs = options.goneGraceMs ?? options.unusedGraceMs;

  function hold(id: string, entry: Entry<T>): (how?: ReleaseHow) => void {
    entry.busy++;
    let released = false;
    return function release(how = 'ended') {
      if (released) return;
      released = true;
      entry.busy--;
      // The end of a long request or stream counts as activity too.
      if (entries.get(id) === entry) entry.lastSeen = now();
      if (how === 'hung up') entry.hungUp = true;
    };
  }

  function stateOf(entry: Entry<T>): { state: SessionState<T>['state']; endsAt?: number } {
    if (entry.busy > 0) return { state: 'active' };
    if (!entry.used) return { state: 'unused', endsAt: entry.createdAt + options.unusedGraceMs };
    if (entry.hungUp) return { state: 'gone', endsAt: Math.min(entry.lastSeen + goneGraceMs, entry.lastSeen + options.idleMs) };
    return { state: 'idle', endsAt: entry.lastSeen + options.idleMs };
  }

  function staleReason(entry: Entry<T>, at: number): SessionEndReason | undefined {
    const { state, endsAt } = stateOf(entry);
    if (endsAt === undefined || at <= endsAt) return undefined;
    return state === 'active' ? undefined : state;
  }

  async function remove(id: string, reason: SessionEndReason): Promise<void> {
    const entry = entries.get(id);
    if (!entry) return;
    entries.delete(id);
    options.onEnd?.(id, reason);
    await options.close(entry.value).catch(() => undefined);
  }

  function evictStale(): void {
    const at = now();
    for (const [id, entry] of entries) {
      const reason = staleReason(entry, at);
      if (reason) void remove(id, reason);
    }
  }

  function leastRecentlyUsedIdle(): string | undefined {
    let oldest: [string, number] | undefined;
    for (const [id, entry] of entries) {
      if (entry.busy === 0 && (!oldest || entry.lastSeen < oldest[1])) oldest = [id, entry.lastSeen];
    }
    return oldest?.[0];
  }

  return {
    get size() {
      return entries.size;
    },
    create(id, value) {
      const at = now();
      const entry: Entry<T> = { value, createdAt: at, lastSeen: at, used: false, busy: 0, hungUp: false };
      entries.set(id, entry);
      return { release: hold(id, entry) };
    },
    get: (id) => entries.get(id)?.value,
    touch(id) {
      const entry = entries.get(id);
      if (!entry) return undefined;
      entry.used = true;
      entry.hungUp = false;
      entry.lastSeen = now();
      return { value: entry.value, release: hold(id, entry) };
    },
    list: () => [...entries].map(([id, e]) => ({ id, value: e.value, createdAt: e.createdAt, lastSeen: e.lastSeen, busy: e.busy, ...stateOf(e) })),
    delete: remove,
    evictStale,
    makeRoom() {
      evictStale();
      while (entries.size >= options.maxSessions) {
        const victim = leastRecentlyUsedIdle();
        if (victim === undefined) return false;
        void remove(victim, 'evicted');
      }
      return true;
    },
    async closeAll() {
      await Promise.all([...entries.keys()].map((id) => remove(id, 'shutdown')));
    },
  };
}
