import assert from 'node:assert/strict';
import { utimesSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fixture, removeDir } from '../helpers/env.ts';
import { type TestApp, testApp, textOf } from '../helpers/app.ts';

// Issue 20, items 4 and 5: doc text inside a body (Python docstrings) answers questions in words like
// a doc comment above a definition does; locate of a bare name lists its definition before its uses.

const calls = Array.from({ length: 8 }, () => '    valve.drain();').join('\n');

// Functions whose names hold some of the question's words, in more files than the gate lets through:
// a question answered by any of its words alone is too broad.
const decoys = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`billing/part${i}.py`, `def outstanding_balance_${i}(invoice):\n    return invoice.unpaid\n`]));

const FILES: Record<string, string> = {
  ...decoys,
  'billing/ledger.py': `"""Double-entry ledger for customer invoices."""


def settle(entries):
    """Reconcile the outstanding balance of every unpaid invoice against the bank statement."""
    total = 0
    for e in entries:
        total += e.amount
    return total


class Archive:
    """Cold storage for closed accounting periods."""

    def seal(self, period):
        return period
`,
  'billing/report.py': `def render(rows):
    # Formats rows for the monthly report.
    return [str(r) for r in rows]
`,
  // One definition of drain, in a nested package-private class; many calls of it elsewhere, in a
  // file named after it and written later.
  'src/Pump.java': `class Pump {
  static class Valve {
    void drain() {
    }
  }
}
`,
  'src/Drainer.java': `class Drainer {
  void run(Pump.Valve valve) {
${calls}
  }

  void again(Pump.Valve valve) {
${calls}
  }
}
`,
};

describe('questions in words and bare names, answered from the code index', () => {
  let root: string;
  let t: TestApp;
  before(async () => {
    root = fixture(FILES);
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(root, 'src/Drainer.java'), later, later);
    t = testApp(root, { graphBackend: 'builtin' });
    await t.app.code.refresh();
  });
  after(async () => {
    await t.close();
    removeDir(root);
  });

  const rows = (r: Awaited<ReturnType<TestApp['call']>>) => ((r.structuredContent as { results?: { file: string; line: number; kind: string }[] }).results ?? []).map((x) => `${x.file}:${x.line} ${x.kind}`);

  it('finds a Python function by the words of its docstring, through locate and search', async () => {
    const question = 'reconcile the outstanding balance of every unpaid invoice';
    const located = await t.call('locate', { query: question });
    assert.equal(rows(located)[0], 'billing/ledger.py:4 definition', textOf(located));
    const searched = await t.call('search', { pattern: question });
    assert.equal((searched.structuredContent as { status: string }).status, 'ok', textOf(searched));
    // The function's definition, or a line of it (its docstring, matched as typed).
    const first = (searched.structuredContent as { results: { file: string; line: number }[] }).results[0];
    assert.ok(first && first.file === 'billing/ledger.py' && first.line >= 4 && first.line <= 9, textOf(searched));
  });

  it('finds a class by its docstring and a module by its own', async () => {
    assert.equal(rows(await t.call('locate', { query: 'cold storage for closed accounting periods' }))[0], 'billing/ledger.py:12 definition');
    // The sentence is the module docstring's own text: search answers with that line, as rg would.
    assert.match(rows(await t.call('search', { pattern: 'double-entry ledger for customer invoices' }))[0]!, /^billing\/ledger\.py:1 /);
    assert.equal(rows(await t.call('search', { pattern: 'where is the double-entry ledger for customer invoices?' }))[0], 'billing/ledger.py:1 definition');
  });

  it('lists the one definition of a bare method name before the many calls of it in another class', async () => {
    const r = await t.call('locate', { query: 'drain' });
    const found = rows(r);
    assert.equal(found[0], 'src/Pump.java:3 definition', textOf(r));
    assert.equal(found.filter((x) => x.endsWith(' call')).length, 9, 'the calls follow (max_results 10)');
  });

  it('keeps the ranked order when the name has no definition, and for kind reference', async () => {
    const r = rows(await t.call('locate', { query: 'drain', kind: 'reference' }));
    assert.ok(r.length && r.every((x) => x.endsWith(' call')), r.join(', '));
    const str = rows(await t.call('locate', { query: 'str' }));
    assert.ok(str.length && !str.some((x) => x.endsWith(' definition')), str.join(', '));
  });
});
