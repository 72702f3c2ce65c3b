import { createNodeRuntime } from '../src/runtime/node.ts';
import { openDatabase } from '../src/storage/database.ts';
import { CODE_DB_PRAGMAS, CODE_MIGRATIONS } from '../src/code/schema.ts';
const rt = createNodeRuntime();
const t0 = performance.now();
const db = await openDatabase(rt, '/tmp/catdb/code.db', { busyTimeoutMs: 5000, migrations: CODE_MIGRATIONS, pragmas: CODE_DB_PRAGMAS });
console.log(`open ${(performance.now() - t0).toFixed(1)} ms`);
const Q1 = "SELECT group_concat(path, char(10)) AS p, group_concat(coalesce(text_doc, -1)) AS d, group_concat(text_of = version) AS t FROM (SELECT path, text_doc, text_of, version FROM code_files ORDER BY path)";
const Q2 = "SELECT group_concat(path, char(10)) AS p, group_concat(coalesce(text_doc, -1)) AS d, group_concat(text_of = version) AS t FROM (SELECT path, text_doc, text_of, version FROM code_files)";
for (const [name, q] of [['ordered', Q1], ['rowid', Q2], ['ordered', Q1], ['rowid', Q2]] as const) {
  const t = performance.now();
  const row = db.readTransaction(() => db.get<{ p: string; d: string; t: string }>(q));
  const t2 = performance.now();
  const paths = row!.p.split('\n');
  const docs = row!.d.split(',').map(Number);
  const t3 = performance.now();
  let sorted = true;
  for (let i = 1; i < paths.length; i++) if (paths[i - 1]! >= paths[i]!) { sorted = false; break; }
  let order: number[] | undefined;
  if (!sorted) order = paths.map((_, k) => k).sort((a, b) => (paths[a]! < paths[b]! ? -1 : paths[a]! > paths[b]! ? 1 : 0));
  const t4 = performance.now();
  console.log(`${name}: sql ${(t2 - t).toFixed(1)} ms, split ${(t3 - t2).toFixed(1)}, sorted ${sorted} sort ${(t4 - t3).toFixed(1)} ms, ${docs.length}`);
}
db.close();
