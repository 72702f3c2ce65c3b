import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { chunkDocument, formatFor } from '../src/kb/chunk/index.ts';
import { KB_MIGRATIONS } from '../src/kb/schema.ts';
import { KnowledgeBase } from '../src/kb/store.ts';
import { loadRuntime } from '../src/runtime/index.ts';
import { openDatabase } from '../src/storage/database.ts';
const dir = '/tmp/linux/linux-source-6.1/Documentation';
const files = (d: string): string[] => readdirSync(d, { withFileTypes: true }).flatMap((e) => e.isDirectory() ? files(path.join(d, e.name)) : [path.join(d, e.name)]);
const docs: { label: string; chunks: ReturnType<typeof chunkDocument> }[] = [];
for (const f of files(dir)) { if (statSync(f).size > 1 << 20) continue; const raw = readFileSync(f); if (raw.subarray(0, 8000).includes(0)) continue; docs.push({ label: f, chunks: chunkDocument(raw.toString(), f, formatFor(f)) }); }
const file = `/tmp/scratch3.db`; rmSync(file, { force: true });
const db = await openDatabase(await loadRuntime(), file, { exclusive: true, busyTimeoutMs: 100, migrations: KB_MIGRATIONS, pragmas: (process.env.P ?? '').split(';').filter(Boolean) });
const times = new Map<string, number>();
for (const m of ['run', 'get', 'value', 'exec'] as const) {
  const orig = (db as any)[m].bind(db);
  (db as any)[m] = (sql: string, bind?: unknown) => { const t = performance.now(); try { return orig(sql, bind); } finally { const k = `${m} ${sql.replace(/\s+/g, ' ').slice(0, 50)}`; times.set(k, (times.get(k) ?? 0) + performance.now() - t); } };
}
const kb = new KnowledgeBase(db, 's', 3.5);
const B = Number(process.env.B ?? 200);
const t0 = performance.now();
for (let i = 0; i < docs.length; i += B) kb.transaction(() => { for (const d of docs.slice(i, i + B)) kb.put({ key: `file:${d.label}`, kind: 'file', label: d.label, chunks: d.chunks }); });
console.log('total', (performance.now() - t0).toFixed(0));
for (const [k, v] of [...times.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(v.toFixed(0).padStart(7), k);
db.close(); rmSync(file);
