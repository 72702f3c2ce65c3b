// A status snapshot with nothing in it, for tests of the status page and its routes.
import type { StatusSnapshot } from '../../src/app/status.ts';

export function emptySnapshot(over: Partial<StatusSnapshot> = {}): StatusSnapshot {
  const empty = { calls: 0, errors: 0, refusals: 0, replyBytes: 0, savedBytes: 0, byBasis: [], byTool: [] };
  return {
    at: 0,
    version: '0.0.0',
    projectRoot: '/project',
    startedAt: 0,
    sessionsOpen: 0,
    usage: { project: empty, server: empty },
    series: [],
    bucketMs: 3_600_000,
    gate: { answered: 0, refused: [], followed: 0 },
    recent: [],
    jobs: [],
    kb: { file: '/data/kb.sqlite', error: 'not opened' },
    codeSearch: 'file scans',
    codeIndex: null,
    textIndex: null,
    charsPerToken: 4,
    ...over,
  };
}
