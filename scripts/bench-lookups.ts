// The name lookups `callers`, `read` and `locate` rest on, timed against an existing code.db (no
// build), and a digest of their answers (ids left out) to compare two schemas' answers on one tree:
//
//   node --import tsx scripts/bench-lookups.ts CODE_DB
//
// Names: every 4th of the 400 most-called, sorted; two rounds (the second warm). The file is opened
// with this checkout's migrations: use a copy.
import { CodeStore } from '../src/code/store.ts';
import { CODE_DB_PRAGMAS, CODE_MIGRATIONS } from '../src/code/schema.ts';
import { loadRuntime } from '../src/runtime/index.ts';
import { openDatabase } from '../src/storage/database.ts';
const runtime = await loadRuntime();
const db = await openDatabase(runtime, process.argv[2]!, { exclusive: false, busyTimeoutMs: 5000, migrations: CODE_MIGRATIONS, pragmas: CODE_DB_PRAGMAS });
const store = new CodeStore(db);
const names = store.mostCalled(400).map((r) => r.name).sort().filter((_, i) => i % 4 === 0);
console.log(names.slice(0, 5).join(" "), "…", names.length);
const digest = (rows: unknown[]) => JSON.stringify(rows.map((r) => JSON.stringify(r)).sort()).length;
console.log("answer digest", names.reduce((s, n) => s + digest(store.referencesNamed(n, ["call"])) + digest(store.definitionsNamed(n).map((d) => ({ ...d, id: 0 }))) + digest(store.localsNamed(n).map((l) => ({ ...l, def_id: 0 }))) + digest(store.callSitesOf(n)), 0));
const time = (f: (n: string) => unknown) => {
  const ms: number[] = [];
  let rows = 0;
  for (const n of names) { const t = performance.now(); const r = f(n) as unknown[]; ms.push(performance.now() - t); rows += r.length; }
  ms.sort((a, b) => a - b);
  return `median ${ms[ms.length >> 1]!.toFixed(2)} ms, p90 ${ms[Math.floor(ms.length * 0.9)]!.toFixed(2)} ms, total ${ms.reduce((a, b) => a + b, 0).toFixed(0)} ms, ${rows} rows`;
};
for (let round = 0; round < 2; round++) {
  console.log(`round ${round}: ${names.length} names`);
  console.log('  referencesNamed call', time((n) => store.referencesNamed(n, ['call'])));
  console.log('  definitionsNamed    ', time((n) => store.definitionsNamed(n)));
  console.log('  callSitesOf         ', time((n) => store.callSitesOf(n)));
  console.log('  localsNamed         ', time((n) => store.localsNamed(n)));
}
db.close();
