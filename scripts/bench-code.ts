// Code index benchmark on code nobody here wrote: build time, peak RSS and database size (side by
// side with codegraph when it is installed), refresh time, and quality against an independent
// oracle — the TypeScript compiler's own syntax tree — for `read` (whole definitions) and callers
// (caller files found, listed uses that are real calls, enclosing function right).
//
//   node --import tsx scripts/bench-code.ts [effect]        (effect: /tmp/bench-effect, as bench-gate)
//
// codegraph is looked up on PATH or in CTXGATE_CODEGRAPH; its index goes into a copy of the corpus.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { createAppContext } from '../src/app/bootstrap.ts';
import { createGrammars } from '../src/code/grammars.ts';
import { createCodeIndex } from '../src/code/index.ts';
import { CODE_MIGRATIONS } from '../src/code/schema.ts';
import { createClientSession } from '../src/app/context.ts';
import { loadRuntime } from '../src/runtime/index.ts';
import { openDatabase } from '../src/storage/database.ts';
import { TOOLS } from '../src/tools/index.ts';
import { createToolRegistry } from '../src/tools/registry.ts';
import { effectSources } from './lib/corpora.ts';
import { lcgSample } from './lib/seeded.ts';

const runtime = await loadRuntime();
const silent = { log() {}, file: undefined, close() {} };

function effectRoot(): string {
  const dir = effectSources();
  return dir;
}

function build(root: string): { ms: number; cpuMs: number; maxRssMB: number; baselineMB: number; dbMB: number; parse: string; mainCpuMs?: number; dbFile: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'ctxgate-bench-code-'));
  const dbFile = path.join(dir, 'code.db');
  // Bundled the way dist/ctxgate.mjs is, so the peak RSS is the product's, not the tsx loader's.
  // The parse worker is bundled beside it, as dist/parse-worker.mjs sits beside dist/ctxgate.mjs.
  const outdir = path.join(import.meta.dirname, '..', 'dist', 'bench-code');
  const bundle = path.join(outdir, 'build-code-index.mjs');
  execFileSync(process.execPath, ['-e', `require('esbuild').buildSync({ entryPoints: { 'build-code-index': 'scripts/lib/build-code-index.ts', 'parse-worker': 'src/code/parse-worker.ts' }, outdir: ${JSON.stringify(outdir)}, outExtension: { '.js': '.mjs' }, bundle: true, platform: 'node', format: 'esm', external: ['@sqlite.org/sqlite-wasm', 'web-tree-sitter'], alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' }, banner: { js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);" }, logLevel: 'warning' })`], { cwd: path.join(import.meta.dirname, '..') });
  const out = execFileSync(process.execPath, [bundle, root, dbFile], { encoding: 'utf8' });
  rmSync(outdir, { recursive: true, force: true });
  return { ...JSON.parse(out.trim().split('\n').pop()!), dbFile };
}

interface CodegraphRun {
  ms: number;
  maxRssMB: number;
  dbMB: number;
  /** Caller files codegraph names for a symbol (its index lives in a copy of the corpus). */
  callerFiles(name: string): Set<string>;
  dispose(): void;
}

function codegraph(root: string): CodegraphRun | undefined {
  const bin = process.env.CTXGATE_CODEGRAPH ?? runtime.which('codegraph');
  if (!bin || !existsSync('/usr/bin/time')) return undefined;
  const copy = mkdtempSync(path.join(tmpdir(), 'ctxgate-bench-cg-'));
  cpSync(root, copy, { recursive: true });
  const started = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', bin, 'init', copy], { encoding: 'utf8', env: { ...process.env, CODEGRAPH_TELEMETRY: '0' } });
  const ms = performance.now() - started;
  const rss = Number(/(\d+)\s*$/.exec(r.stderr.trim())?.[1] ?? 0);
  const db = execFileSync('du', ['-sb', path.join(copy, '.codegraph')], { encoding: 'utf8' });
  return {
    ms: Math.round(ms),
    maxRssMB: Math.round(rss / 1024),
    dbMB: +(Number(db.split('\t')[0]) / 1e6).toFixed(1),
    callerFiles(name) {
      const out = spawnSync(bin, ['callers', name, '-p', copy, '-j', '-l', '1000'], { encoding: 'utf8', env: { ...process.env, CODEGRAPH_TELEMETRY: '0' } });
      try {
        const r = JSON.parse(out.stdout) as { definitions?: { callers: { filePath: string }[] }[] };
        return new Set((r.definitions ?? []).flatMap((d) => d.callers.map((c) => c.filePath)));
      } catch {
        return new Set();
      }
    },
    dispose: () => rmSync(copy, { recursive: true, force: true }),
  };
}

// ---- the oracle: TypeScript's own syntax tree ----

interface OracleDef {
  file: string;
  name: string;
  /** With the JSDoc comment right above. */
  start: number;
  end: number;
}
interface OracleCall {
  file: string;
  line: number;
  name: string;
  enclosing: string | undefined;
}

function tsFiles(root: string, dir = root): string[] {
  return readdirRecursive(dir).filter((f) => f.endsWith('.ts')).map((f) => path.relative(root, f));
}
function readdirRecursive(dir: string): string[] {
  const out: string[] = [];
  for (const name of execFileSync('ls', ['-1', dir], { encoding: 'utf8' }).split('\n').filter(Boolean)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...readdirRecursive(p));
    else out.push(p);
  }
  return out;
}

function oracle(root: string): { defs: OracleDef[]; members: OracleDef[]; calls: OracleCall[] } {
  const defs: OracleDef[] = [];
  const members: OracleDef[] = [];
  const calls: OracleCall[] = [];
  for (const file of tsFiles(root)) {
    const text = readFileSync(path.join(root, file), 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const line = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line + 1;
    const docStart = (node: ts.Node) => {
      const ranges = ts.getLeadingCommentRanges(text, node.pos) ?? [];
      const last = ranges[ranges.length - 1];
      // A comment directly above (no blank line between) belongs to the definition.
      if (last && line(node.getStart(sf)) - line(last.end) <= 1) {
        let first = ranges.length - 1;
        while (first > 0 && line(ranges[first]!.pos) - line(ranges[first - 1]!.end) <= 1) first--;
        return line(ranges[first]!.pos);
      }
      return line(node.getStart(sf));
    };
    const nameOf = (n: ts.Node): string | undefined => {
      if ((ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isClassDeclaration(n)) && n.name && ts.isIdentifier(n.name)) return n.name.text;
      if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && ts.isSourceFile(n.parent.parent.parent)) return n.name.text;
      return undefined;
    };
    const visit = (node: ts.Node, enclosing: string | undefined) => {
      const own = nameOf(node);
      if (ts.isSourceFile(node.parent ?? node) || node.parent === sf) {
        if ((ts.isFunctionDeclaration(node) && node.body) || ts.isClassDeclaration(node)) {
          if (own) defs.push({ file, name: own, start: docStart(node), end: line(node.end) });
        }
        if (ts.isVariableStatement(node) && node.declarationList.declarations.length === 1) {
          const d = node.declarationList.declarations[0]!;
          if (ts.isIdentifier(d.name)) defs.push({ file, name: d.name.text, start: docStart(node), end: line(node.end) });
        }
      }
      // Members and nested functions: a line inside one of them is answered with it (innermost first).
      if ((ts.isMethodDeclaration(node) || ts.isConstructorDeclaration(node) || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node) || (ts.isFunctionDeclaration(node) && !ts.isSourceFile(node.parent))) && 'body' in node && node.body) {
        members.push({ file, name: own ?? 'constructor', start: docStart(node), end: line(node.end) });
      }
      if (ts.isCallExpression(node)) {
        const callee = node.expression;
        const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : undefined;
        if (name) calls.push({ file, line: line((ts.isPropertyAccessExpression(callee) ? callee.name : callee).getStart(sf)), name, enclosing });
      }
      ts.forEachChild(node, (c) => visit(c, own ?? enclosing));
    };
    visit(sf, undefined);
  }
  return { defs, members, calls };
}


const pct = (a: number, b: number) => `${b ? ((100 * a) / b).toFixed(1) : '–'}% (${a}/${b})`;

async function quality(root: string, cg: CodegraphRun | undefined): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ctxgate-bench-code-q-'));
  const env = { get: (n: string) => (n === 'CTXGATE_DATA_DIR' ? dataDir : runtime.env.get(n)), toObject: () => ({ ...runtime.env.toObject(), CTXGATE_DATA_DIR: dataDir }) };
  const app = createAppContext({ ...runtime, env }, { projectRoot: root, debug: false, graphBackend: 'builtin' });
  await app.code.refresh();
  const registry = createToolRegistry(TOOLS);
  const session = createClientSession('bench');
  const call = async (tool: string, args: Record<string, unknown>) => registry.call(tool, args, { app, session, signal: new AbortController().signal, progress: async () => undefined });
  const { defs, members, calls } = oracle(root);

  // read: file:line in the middle of a top-level definition returns the innermost definition holding
  // that line (a method of a class, else the definition itself), all of it, doc comment included.
  let whole = 0;
  let exact = 0;
  const picked = lcgSample(defs, 300);
  for (const top of picked) {
    const mid = Math.floor((top.start + top.end) / 2);
    const inner = members.filter((m) => m.file === top.file && m.start <= mid && mid <= m.end && m.start >= top.start).sort((a, b) => a.end - a.start - (b.end - b.start))[0];
    const d = inner ?? top;
    const r = await call('read', { target: `${d.file}:${mid}`, max_tokens: 24000 });
    const s = r.structuredContent as { start: number; end: number } | undefined;
    if (s && s.start <= d.start && s.end >= d.end) whole++;
    else if (process.env.BENCH_VERBOSE) console.log(`  not whole: ${d.file}:${d.start}-${d.end} ${d.name} → ${s?.start}-${s?.end}`);
    if (s && s.start === d.start && s.end === d.end) exact++;
  }
  console.log(`read file:line → whole definition ${pct(whole, picked.length)}, exactly it ${pct(exact, picked.length)}`);

  // callers: for sampled functions called from 2–300 places.
  const byName = new Map<string, OracleCall[]>();
  for (const c of calls) byName.set(c.name, [...(byName.get(c.name) ?? []), c]);
  const candidates = [...new Set(defs.map((d) => d.name))].filter((n) => {
    const k = byName.get(n)?.length ?? 0;
    return k >= 2 && k <= 300;
  });
  let files = 0;
  let filesFound = 0;
  let listed = 0;
  let real = 0;
  let enclosed = 0;
  let enclosedRight = 0;
  let cgFound = 0;
  let cgListed = 0;
  let cgReal = 0;
  let agreeBoth = 0;
  let agreeEither = 0;
  for (const name of lcgSample(candidates, 60)) {
    const truth = byName.get(name)!;
    const truthAt = new Map(truth.map((c) => [`${c.file}:${c.line}`, c]));
    const uses = (await app.graph.uses(name))?.uses.filter((u) => u.kind === 'call') ?? [];
    const truthFiles = new Set(truth.map((c) => c.file));
    const gotFiles = new Set(uses.map((u) => u.file));
    files += truthFiles.size;
    filesFound += [...truthFiles].filter((f) => gotFiles.has(f)).length;
    if (cg) {
      const theirs = cg.callerFiles(name);
      cgFound += [...truthFiles].filter((f) => theirs.has(f)).length;
      cgListed += theirs.size;
      cgReal += [...theirs].filter((f) => truthFiles.has(f)).length;
      agreeBoth += [...gotFiles].filter((f) => theirs.has(f)).length;
      agreeEither += new Set([...gotFiles, ...theirs]).size;
    }
    for (const u of uses) {
      listed++;
      const t = truthAt.get(`${u.file}:${u.line}`);
      if (!t) continue;
      real++;
      enclosed++;
      if ((u.caller?.name ?? undefined) === t.enclosing) enclosedRight++;
    }
  }
  console.log(`callers → caller files found ${pct(filesFound, files)}; listed uses that are real calls ${pct(real, listed)}; enclosing function right ${pct(enclosedRight, enclosed)}`);
  if (cg) {
    console.log(`codegraph callers on the same names → caller files found ${pct(cgFound, files)}; files it names that really call ${pct(cgReal, cgListed)}`);
    console.log(`agreement of caller files, ctxgate and codegraph: ${pct(agreeBoth, agreeEither)} of the files either names`);
  }
  await app.lifecycle.shutdown('bench done');
  rmSync(dataDir, { recursive: true, force: true });
}

async function refreshAfterTouching(root: string, dbFile: string, n: number): Promise<number> {
  const files = tsFiles(root).slice(0, n);
  const later = new Date(Date.now() + 1000);
  // The corpus is shared with bench-gate (whose ranking weighs recency): put the times back after.
  const before = files.map((f) => statSync(path.join(root, f)));
  for (const f of files) utimesSync(path.join(root, f), later, later);
  const index = createCodeIndex({
    fs: runtime.fs,
    grammars: createGrammars(runtime),
    logger: silent,
    workdirs: { dirs: [root] },
    root,
    scan: { excludeDirs: ['node_modules', '.codegraph'], respectGitignore: true },
    openDatabase: () => openDatabase(runtime, dbFile, { exclusive: false, busyTimeoutMs: 5000, migrations: CODE_MIGRATIONS }),
  });
  await index.ready();
  const started = performance.now();
  await index.refresh();
  const ms = performance.now() - started;
  await index.close();
  files.forEach((f, i) => {
    utimesSync(path.join(root, f), before[i]!.atime, before[i]!.mtime);
  });
  return Math.round(ms);
}

const root = effectRoot();
console.log(`effect: ${root}`);
const ours = build(root);
console.log(`ctxgate builtin (parsing: ${ours.parse}): first build ${ours.ms} ms (cpu ${ours.cpuMs} ms, of which the main thread ${ours.mainCpuMs ?? '?'} ms), peak RSS ${ours.maxRssMB} MB (${ours.baselineMB} MB before building), database ${ours.dbMB} MB, nothing written into the corpus`);
console.log(`refresh after touching 10 files: ${await refreshAfterTouching(root, ours.dbFile, 10)} ms`);
rmSync(path.dirname(ours.dbFile), { recursive: true, force: true });
const cg = codegraph(root);
console.log(cg ? `codegraph init: ${cg.ms} ms, peak RSS ${cg.maxRssMB} MB, .codegraph/ ${cg.dbMB} MB (written into the repository)` : 'codegraph: not installed (set CTXGATE_CODEGRAPH or put it on PATH)');
await quality(root, cg);
cg?.dispose();
