import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderStatusBody, renderStatusPage } from '../../src/transports/status-page.ts';
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
        recent: [{ at: 0, tool: HOSTILE, action: HOSTILE, outcome: 'error', detail: HOSTILE, durationMs: 1, replyBytes: 1, savedBytes: 0 }],
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
});
