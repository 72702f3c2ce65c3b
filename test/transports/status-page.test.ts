import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeSessions, renderStatusBody, renderStatusPage } from '../../src/transports/status-page.ts';
import { emptySnapshot } from '../helpers/status.ts';

const HOSTILE = `<img src=x onerror=alert(1)>"'</title><script>alert(2)</script>`;

const job = (label: string, tail = '') => ({ id: 'job-1', pid: 1, label, running: true, ageMs: 1000, exit_code: null, signal: null, log_bytes: 0, log_truncated: false, tail });

describe('status page', () => {
  it('escapes every text a tool call or a project can put on the page', () => {
    const usage = { calls: 1, errors: 0, refusals: 0, replyBytes: 1, savedBytes: 1, byBasis: [], byTool: [{ tool: HOSTILE, calls: 1, errors: 0, refusals: 0, replyBytes: 1, savedBytes: 1, p50Ms: 1 }] };
    const page = renderStatusPage(
      emptySnapshot({
        projectRoot: `/p/${HOSTILE}`,
        usage: { project: usage, server: usage },
        gate: { answered: 0, refused: [{ reason: HOSTILE, count: 1 }], followed: 0 },
        recent: [{ at: 0, tool: HOSTILE, action: HOSTILE, args: HOSTILE, outcome: 'error', detail: HOSTILE, durationMs: 1, replyBytes: 1, savedBytes: 0 }],
        jobs: [job(HOSTILE, HOSTILE)],
        kb: { file: HOSTILE, documents: 1, chunks: 1, bytes: 1, databaseBytes: 1, sessionId: 's', sources: [{ label: HOSTILE, kind: HOSTILE, chunks: 1, bytes: 1 }] },
        codeSearch: HOSTILE,
      }),
      'nonce123',
    );
    assert.doesNotMatch(page, /<img|<\/title><script>|onerror=alert\(1\)>"/);
    assert.equal(page.match(/<script/g)?.length, 1, 'only the page script');
    assert.ok(page.includes('&#60;img src=x onerror=alert(1)&#62;'), 'shown as text');
  });

  it('does not quote a job or source label that holds a password', () => {
    const body = renderStatusBody(
      emptySnapshot({
        jobs: [job('execute-ab12-1 shell: psql postgres://admin:hunter2@db.example/app'), job('execute-ab12-2 shell: GITHUB_TOKEN=ghs_hunter2hunter2 npm…')],
        kb: { file: '/kb', documents: 1, chunks: 1, bytes: 1, databaseBytes: 1, sessionId: 's', sources: [{ label: 'https://deploy:s3cretpw@git.example/repo', kind: 'url', chunks: 1, bytes: 1 }] },
      }),
    );
    assert.doesNotMatch(body, /hunter2|s3cretpw/);
    assert.match(body, /label not shown: it holds/);
  });

  it("hides the lines of a job's output that hold a secret, and shows the rest", () => {
    const body = renderStatusBody(emptySnapshot({ jobs: [job('execute-ab12-3 shell: cat .env', 'PORT=8080\nSTRIPE_SECRET_KEY=sk_live_hunter2hunter2\nDATABASE_URL=postgres://app:hunter2@db/prod\ndone')] }));
    assert.doesNotMatch(body, /hunter2/);
    assert.match(body, /PORT=8080\n\(line not shown: it holds a secret assignment\)\n\(line not shown: it holds a URL with a password\)\ndone/);
  });

  it('shows each call in flight with how long it has run and its arguments, and each recent call with its arguments', () => {
    const recent = (args: string) => ({ at: 0, tool: 'search', action: null, args, outcome: 'ok' as const, detail: null, durationMs: 5, replyBytes: 10, savedBytes: 0 });
    const body = renderStatusBody(
      emptySnapshot({
        at: 90_000,
        inFlight: [{ tool: 'ctx_run', action: 'execute', args: 'command="sleep 20"', session: '0123456789abcdef', startedAt: 78_000 }],
        recent: [recent('pattern="widget"'), recent('pattern="frame" scope="lib"'), recent('pattern="x" token="ghp_abcdefghijklmnopqrstuvwxyz0123456789"')],
      }),
    );
    assert.match(body, /<td>ctx_run execute<\/td><td><code>command=&#34;sleep 20&#34;<\/code><\/td><td>12\.0 s<\/td><td><code>01234567<\/code><\/td>/);
    assert.match(body, /1 being answered now/);
    assert.match(body, /<code>pattern=&#34;widget&#34;<\/code>/);
    assert.match(body, /<code>pattern=&#34;frame&#34; scope=&#34;lib&#34;<\/code>/);
    assert.doesNotMatch(body, /ghp_abc/, 'a summary that still holds a token is not quoted');
    assert.match(body, /arguments not shown: they hold/);
    assert.match(renderStatusBody(emptySnapshot()), /No call is being answered now\./);
  });

  it('counts the sessions by what they are doing, and says when each idle one closes', () => {
    const session = (id: string, state: 'active' | 'idle' | 'unused' | 'gone', endsAt?: number) => ({ id, client: 'claude-code 2.1.0', openedAt: 0, lastSeenAt: 30_000, state, open: state === 'active' ? 2 : 0, ...(endsAt ? { endsAt } : {}) });
    const sessions = [session('aaaa', 'active'), session('bbbb', 'idle', 1_830_000), session('cccc', 'gone', 90_000), session('dddd', 'gone', 90_000)];
    assert.equal(describeSessions(sessions), '4 open: 1 active, 1 idle, 2 client gone');
    assert.equal(describeSessions([]), 'none open');
    const body = renderStatusBody(emptySnapshot({ at: 60_000, sessions }));
    assert.match(body, /<dd>4 open: 1 active, 1 idle, 2 client gone<\/dd>/);
    assert.match(body, /<code>aaaa<\/code><\/th><td>claude-code 2\.1\.0<\/td><td>active \(2 requests or streams open\)<\/td><td>00:00:00<\/td><td>—<\/td>/);
    assert.match(body, /<code>bbbb<\/code>.*?idle for 30\.0 s<\/td><td>00:00:00<\/td><td>in 30 min unless it comes back</);
    assert.match(body, /<code>cccc<\/code>.*?client hung up 30\.0 s ago<\/td><td>00:00:00<\/td><td>in 30\.0 s unless it comes back</);
  });
});
