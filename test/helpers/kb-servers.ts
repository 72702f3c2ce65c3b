// The scenario several servers sharing one knowledge base go through at once (several servers on one
// SQLite data dir, or on one Postgres): each indexes its own folder, keeps a big command output and
// searches, all concurrently; then each finds what the others indexed, outputs included.
import assert from 'node:assert/strict';

export type KbCall = (server: number, name: string, args: Record<string, unknown>) => Promise<{ r: { isError?: boolean }; text: string }>;

/**
 * Every server at once indexes `area<s>` (expecting `files` files), keeps the output of a command
 * holding `quokka<s>` and finds its own `zebra<s> harbor<s>` document; returns each output's label.
 */
export async function indexRunSearchAtOnce(call: KbCall, servers: number, files: number): Promise<string[]> {
  return Promise.all(
    Array.from({ length: servers }, async (_, s) => {
      const indexed = await call(s, 'ctx_kb', { action: 'index', path: `area${s}` });
      assert.equal(indexed.r.isError, undefined, indexed.text);
      assert.match(indexed.text, new RegExp(`indexed ${files} files`));
      const run = await call(s, 'ctx_run', { action: 'execute', command: `seq 1 8000 | sed 's/$/ output of server${s} quokka${s}/'` });
      assert.equal(run.r.isError, undefined, run.text);
      const label = /indexed as "([^"]+)"/.exec(run.text)?.[1];
      assert.ok(label, run.text);
      const found = await call(s, 'ctx_kb', { action: 'search', query: `zebra${s} harbor${s}` });
      assert.match(found.text, new RegExp(`area${s}/doc\\d+\\.md`), found.text);
      return label;
    }),
  );
}

/** Each server finds the next one's documents and its output (by the labels indexRunSearchAtOnce gave). */
export async function eachFindsTheOthers(call: KbCall, servers: number, labels: readonly string[]): Promise<void> {
  for (let s = 0; s < servers; s++) {
    const other = (s + 1) % servers;
    const page = await call(s, 'ctx_kb', { action: 'search', query: `zebra${other}` });
    assert.match(page.text, new RegExp(`area${other}/doc`), page.text);
    const output = await call(s, 'ctx_kb', { action: 'search', query: `quokka${other}`, source: labels[other] });
    assert.match(output.text, new RegExp(`server${other} quokka${other}`), output.text);
  }
}
