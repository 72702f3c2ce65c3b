// `locate kind=definition` hit@1 on declarations nobody here chose, with the expected answer from a
// parser that is not ctxgate's:
// - effect (TypeScript): the compiler's own syntax tree gives every declaration — top-level and
//   member definitions, and locals, parameters, object and inline-type fields, enum members. A
//   sampled name is a hit when locate's first answer is one of its definitions proper (when it has
//   any), else one of its local declarations: a local never comes before a definition.
// - C (a kernel subtree, when given): functions whose body Universal Ctags finds in a .c file and
//   that a header also declares, a hit being locate's first answer at a body (ctags' line); and
//   object-like macros a header defines once (`#define NAME value`), a hit at that line.
//
//   node --import tsx scripts/bench-declarations.ts [effect|c DIR] [samples]
//
// The index is built first (not timed); the queries go through the tool registry as a client's would.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createAppContext } from '../src/app/bootstrap.ts';
import { createClientSession } from '../src/app/context.ts';
import { loadRuntime } from '../src/runtime/index.ts';
import { TOOLS } from '../src/tools/index.ts';
import { createToolRegistry } from '../src/tools/registry.ts';
import { effectSources } from './lib/corpora.ts';
import { type Declaration, filesUnder, typescriptDeclarations } from './lib/ts-declarations.ts';
import { lcgSample } from './lib/seeded.ts';

const runtime = await loadRuntime();

/** Universal Ctags' tags of `kinds` in `files` (under `root`): name, line, file and the line's text. */
function ctags(root: string, kinds: string, files: string[]): { name: string; line: number; file: string; text: string }[] {
  if (!files.length) return [];
  return execFileSync('ctags', ['-x', `--kinds-C=${kinds}`, '--language-force=C', '-f', '-', ...files], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 })
    .split('\n')
    .map((l) => /^(\S+)\s+\S+\s+(\d+)\s+(\S+)\s?(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => !!m)
    .map((m) => ({ name: m[1]!, line: Number(m[2]), file: m[3]!, text: m[4]! }));
}

/**
 * Object-like macros (`#define NAME value`) of the headers under `root` defined once (Universal Ctags):
 * what code.db keeps per file rather than per name (schema 10, code/table-macros.ts).
 */
function cMacros(root: string): Declaration[] {
  const defined = ctags(root, 'd', filesUnder(root, /\.h$/));
  const count = new Map<string, number>();
  for (const d of defined) count.set(d.name, (count.get(d.name) ?? 0) + 1);
  return defined
    .filter((d) => count.get(d.name) === 1 && new RegExp(`^\\s*#\\s*define\\s+${d.name}(?:\\s|$)`).test(d.text))
    .map(({ name, line, file }) => ({ name, line, file, local: false, what: 'c-macro' }));
}

/** Functions with a body in a .c file that a header under `root` declares too (Universal Ctags). */
function cFunctions(root: string): Declaration[] {
  const sources = filesUnder(root, /\.c$/);
  const headers = filesUnder(root, /\.h$/);
  const declared = new Set(ctags(root, 'p', headers).map((t) => t.name));
  const bodies = ctags(root, 'f', sources);
  const count = new Map<string, number>();
  for (const b of bodies) count.set(b.name, (count.get(b.name) ?? 0) + 1);
  // One body per name: several (static helpers of one name in many files) have no single answer.
  return bodies.filter((b) => declared.has(b.name) && count.get(b.name) === 1).map((b) => ({ ...b, local: false, what: 'c-body' }));
}


const pct = (a: number, b: number) => `${b ? ((100 * a) / b).toFixed(1) : '–'}% (${a}/${b})`;

async function run(root: string, all: Declaration[], picks: Declaration[]): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ctxgate-bench-decl-'));
  const env = { get: (n: string) => (n === 'CTXGATE_DATA_DIR' ? dataDir : runtime.env.get(n)), toObject: () => ({ ...runtime.env.toObject(), CTXGATE_DATA_DIR: dataDir }) };
  const app = createAppContext({ ...runtime, env }, { projectRoot: root, debug: false, graphBackend: 'builtin' });
  const started = performance.now();
  await app.code.refresh();
  const dbFile = readdirSync(dataDir, { recursive: true, withFileTypes: true }).find((e) => e.isFile() && e.name === 'code.db');
  const dbMB = dbFile ? statSync(path.join(dbFile.parentPath, dbFile.name)).size / 1e6 : 0;
  console.log(`index built in ${Math.round(performance.now() - started)} ms, code.db ${dbMB.toFixed(1)} MB`);
  const registry = createToolRegistry(TOOLS);
  const session = createClientSession('bench');
  const byName = new Map<string, Declaration[]>();
  for (const d of all) byName.set(d.name, [...(byName.get(d.name) ?? []), d]);
  const tally = new Map<string, { hits: number; n: number; found: number }>();
  const misses: string[] = [];
  for (const pick of picks) {
    const r = await registry.call('locate', { query: pick.name, kind: 'definition', max_results: 10 }, { app, session, signal: new AbortController().signal, progress: async () => undefined });
    const results = ((r.structuredContent as { results?: { file: string; line: number }[] } | undefined)?.results ?? []).map((x) => `${x.file}:${x.line}`);
    const named = byName.get(pick.name) ?? [pick];
    const proper = named.filter((d) => !d.local);
    const expected = new Set((proper.length ? proper : named).map((d) => `${d.file}:${d.line}`));
    const hit = results[0] !== undefined && expected.has(results[0]);
    const t = tally.get(pick.what) ?? { hits: 0, n: 0, found: 0 };
    t.n++;
    if (hit) t.hits++;
    if (results.includes(`${pick.file}:${pick.line}`)) t.found++;
    tally.set(pick.what, t);
    if (!hit) misses.push(`${pick.what} ${pick.name} (${pick.file}:${pick.line}) → ${results[0] ?? 'nothing found'}`);
  }
  let hits = 0;
  let n = 0;
  for (const [what, t] of [...tally].sort()) {
    console.log(`  ${what.padEnd(10)} hit@1 ${pct(t.hits, t.n)}; the sampled declaration itself in the first 10: ${pct(t.found, t.n)}`);
    hits += t.hits;
    n += t.n;
  }
  console.log(`locate kind=definition hit@1: ${pct(hits, n)}`);
  if (process.env.BENCH_VERBOSE) for (const m of misses) console.log(`  miss: ${m}`);
  else console.log(`  (${misses.length} misses; BENCH_VERBOSE=1 lists them)`);
  await app.lifecycle.shutdown('bench done');
  rmSync(dataDir, { recursive: true, force: true });
}

const [corpus = 'effect', ...rest] = process.argv.slice(2);
if (corpus === 'c') {
  const root = rest[0];
  if (!root || !existsSync(root)) throw new Error('usage: bench-declarations.ts c DIR [samples] (DIR: a C tree, e.g. a kernel subtree)');
  const n = Number(rest[1] ?? 200);
  const fns = cFunctions(root);
  const macros = cMacros(root);
  console.log(`C: ${root}, ${fns.length} functions with one body and a header declaration, ${macros.length} object-like macros defined once; sampling ${n} of each`);
  await run(root, [...fns, ...macros], [...lcgSample(fns, n), ...lcgSample(macros, n, 4242)]);
} else {
  const root = effectSources();
  const n = Number(rest[0] ?? 150);
  const decls = typescriptDeclarations(root);
  const proper = decls.filter((d) => !d.local);
  const locals = decls.filter((d) => d.local);
  console.log(`effect: ${decls.length} declarations (${proper.length} definitions proper, ${locals.length} locals, parameters, fields, enum members); sampling ${n} of each`);
  await run(root, decls, [...lcgSample(proper, n), ...lcgSample(locals, n, 777)]);
}
