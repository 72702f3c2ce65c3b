// A call row's calls, grouped by how they are made. One row holds every call of a name on a line;
// where those calls differ (`entrySet().equals(m.entrySet())`: one on `this`, one on a Map) or carry
// an argument count (Java overloads), the row's `calls` column lists each group (schema.ts, version 8).
import type { CallGroup } from './extracted.ts';

export interface Call {
  qualifier: string | null;
  via: string | null;
  /** How many calls of the line are made this way. */
  n: number;
  /** Their argument count, where extraction records it (Java). */
  args: number | undefined;
}

/** The groups of one row: its `calls` list, else the row's own qualifier, via and count. */
export function callGroups(row: { qualifier: string | null; via: string | null; n: number; calls: string | null }): Call[] {
  const own = [{ qualifier: row.qualifier, via: row.via, n: Math.max(1, Number(row.n) || 1), args: undefined }];
  if (!row.calls) return own;
  let groups: unknown;
  try {
    groups = JSON.parse(row.calls);
  } catch {
    return own;
  }
  if (!Array.isArray(groups) || !groups.length) return own;
  return (groups as CallGroup[]).map(([qualifier, via, n, args]) => ({ qualifier: qualifier ?? null, via: via ?? null, n: Math.max(1, Number(n) || 1), args: typeof args === 'number' ? args : undefined }));
}

/** Groups a line's calls of one name by qualifier, via and argument count, in the order written. */
export function groupCalls(calls: { qualifier: string | undefined; via: string | undefined; args: number | undefined }[]): CallGroup[] {
  const out: CallGroup[] = [];
  for (const c of calls) {
    const same = out.find((g) => g[0] === (c.qualifier ?? null) && g[1] === (c.via ?? null) && g[3] === (c.args ?? null));
    if (same) same[2]++;
    else out.push([c.qualifier ?? null, c.via ?? null, 1, c.args ?? null]);
  }
  return out;
}
