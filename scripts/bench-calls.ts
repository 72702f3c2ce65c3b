// Calls benchmark (issue 22) on code nobody here wrote, held out: the truth is each language's own
// parser and type checker, never ctxgate's answers.
//
//   node --import tsx scripts/bench-calls.ts [python|go|java|typescript|all] [methods=30] [seed=22]
//   BENCH_DATA_DIR=/tmp/x …   keeps the data folders (and their code indexes) from one run to the next
//   BENCH_VERBOSE=1 …         prints every miss and every wrong site
//
// Corpora (copied once into /tmp/bench-calls-src/<language>, then reused; tests left out, since the
// truth is computed on the code a package builds from):
//   python      /usr/lib/python3.11: json, email, asyncio, http, collections and a few top-level modules
//   go          /usr/share/go-1.19/src: net/http (and its subpackages), strings, bufio, encoding/json;
//               no _test.go files, no testdata
//   java        java.base/java/util/*.java from the JDK's lib/src.zip
//   typescript  the `effect` package's sources (/tmp/bench-effect/node_modules/effect/src)
//
// Truth:
//   python      scripts/bench-calls/python-calls.py, on Python's `ast`. Python has no static types: a
//               call counts as resolved only where its target is certain from the source (imports,
//               self/cls/super, C.m, `x: C` annotations, `x = C(...)`, `self.a = C(...)`); any other
//               call of the name is unknown, and a listed site where the only call of the name is
//               unknown is not judged (counted apart).
//   go          scripts/bench-calls/go-calls.go: go/types (every call bound to its *types.Func, promoted
//               methods of embedded fields to the embedded type's method).
//   java        scripts/bench-calls/JavaCalls.java: javac's attribution (Trees.getElement of every
//               method invocation, implicit `this` included).
//   typescript  the TypeScript checker (getSymbolAtLocation, aliases followed to their declaration).
//   A call binds statically: `list.get(i)` on a `List` calls `List.get`, not an override.
//
// Measures (sampled with a fixed seed):
//   Owner.method   methods whose name is declared by two or more owners (the case where the owner
//                  matters), with an owner name that is unique in the corpus and at least one call;
//                  asked as `explore {anchor: "Owner.method", relation: "callers"}`.
//                  recall: share of the true call lines listed (a site hidden behind "+N more" is not
//                  listed); owner precision: share of the listed lines that truly call that method;
//                  header exact: the "N calls" of the first line equals the true number of calls (calls
//                  it lists in corpus files the truth did not check, Go files of another GOOS or
//                  build tag, are left out).
//                  Sites labelled as override candidates (a call on a base type that may run this
//                  override) are neither right nor wrong: counted apart.
//   unique name    functions and methods whose name is declared once in the corpus and which no call
//                  binds to anything else (a builtin, another library), asked as
//                  `explore {anchor: name, relation: "callers"}`: precision of the listed lines, and
//                  for the right ones whether "in X" names the enclosing function the parser sees.
//   callees (TS)   top-level functions of effect (a file stem and name that is unique), asked as
//                  `explore {anchor: "stem.name", relation: "callees"}`: for each called name the checker
//                  puts in another place of the project, is the first location listed in the right
//                  file; names that are the function's own locals and parameters, or lie outside the
//                  project (Math.min, array .map), should get no project location.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { createAppContext } from '../src/app/bootstrap.ts';
import { createClientSession } from '../src/app/context.ts';
import { loadRuntime } from '../src/runtime/index.ts';
import type { Runtime } from '../src/runtime/types.ts';
import { TOOLS } from '../src/tools/index.ts';
import { createToolRegistry } from '../src/tools/registry.ts';
import { sample, seededRandom } from './lib/seeded.ts';
import { effectSources, javaUtilSources } from './lib/corpora.ts';

const SRC = '/tmp/bench-calls-src';
const HERE = path.dirname(new URL(import.meta.url).pathname);
const GO_SRC = '/usr/share/go-1.19/src';
const GO_PACKAGES = ['net/http', 'strings', 'bufio', 'encoding/json'];

/** A declaration or a call as the language's own tools see it (the helpers print these, one a line). */
interface Declared {
  t: 'def';
  file: string;
  line: number;
  end: number;
  name: string;
  container: string;
  kind: string;
}
interface Target {
  file: string;
  line: number;
  name: string;
  container: string;
}
interface Call {
  t: 'call';
  file: string;
  line: number;
  name: string;
  /** False when the parser cannot tell what the call reaches (Python only, in practice). */
  resolved: boolean;
  /** The corpus definition it calls; null when it calls something outside the corpus (or not a function). */
  target: Target | null;
  caller: { name: string; container: string } | null;
}
type Row = Declared | Call;

interface Corpus {
  name: string;
  root(): string;
  truth(root: string): Row[];
}

function filesUnder(root: string, keep: (rel: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (keep(path.relative(root, p))) out.push(path.relative(root, p));
    }
  };
  walk(root);
  return out.sort();
}

function jsonLines(stdout: string): Row[] {
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Row);
}

/** Copies `parts` of `from` into SRC/name once (files `keep` accepts), then reuses the copy. */
function copied(name: string, from: string, parts: string[], keep: (rel: string) => boolean = () => true): string {
  const dir = path.join(SRC, name);
  if (!existsSync(dir)) {
    const part = `${dir}.part`;
    rmSync(part, { recursive: true, force: true });
    for (const p of parts) cpSync(path.join(from, p), path.join(part, p), { recursive: true, filter: (src) => keep(path.relative(from, src)) });
    renameSync(part, dir);
  }
  return dir;
}

const GO_KEEP = (rel: string) => !/(^|\/)testdata(\/|$)/.test(rel) && !rel.endsWith('_test.go');

const CORPORA: Corpus[] = [
  {
    name: 'python',
    root: () => copied('python', '/usr/lib/python3.11', ['json', 'email', 'asyncio', 'http', 'collections', 'argparse.py', 'textwrap.py', 'shutil.py', 'subprocess.py', 'pathlib.py', 'functools.py', 'heapq.py', 'bisect.py', 'tempfile.py'], (rel) => !rel.includes('__pycache__')),
    truth: (root) => jsonLines(execFileSync('python3', [path.join(HERE, 'bench-calls/python-calls.py'), root], { encoding: 'utf8', maxBuffer: 1 << 28 })),
  },
  {
    name: 'go',
    root: () => copied('go', GO_SRC, GO_PACKAGES, GO_KEEP),
    truth(root) {
      // Type-checked where the standard library lives (its imports resolve there); the copy has the same paths.
      const dirs = [...new Set(filesUnder(root, (rel) => rel.endsWith('.go')).map((f) => path.dirname(f)))];
      const go = existsSync('/usr/lib/go-1.19/bin/go') ? '/usr/lib/go-1.19/bin/go' : 'go';
      return jsonLines(execFileSync(go, ['run', path.join(HERE, 'bench-calls/go-calls.go'), GO_SRC, ...dirs], { encoding: 'utf8', maxBuffer: 1 << 28 }));
    },
  },
  {
    name: 'java',
    root: () => javaUtilSources(path.join(SRC, 'java')),
    truth: (root) => jsonLines(execFileSync('java', [path.join(HERE, 'bench-calls/JavaCalls.java'), root], { encoding: 'utf8', maxBuffer: 1 << 28 })),
  },
];


const pct = (n: number, of: number) => `${of ? Math.round((n / of) * 100) : 0}% (${n}/${of})`;

/** One listed call site of a callers answer. */
interface Site {
  file: string;
  line: number;
  /** The enclosing function named after "in", null for "(top level)", undefined when not said. */
  caller: string | null | undefined;
  /** Labelled as a candidate only (an override that a call on a base type may run). */
  candidate: boolean;
}

/**
 * The callers answer as data: the "N calls" of its first line, the listed sites, the count hidden behind
 * "+N more", and the calls listed in files of the corpus the truth did not check (`unseen`: Go files
 * another GOOS or build tag selects, like roundtrip_js.go) — neither right nor wrong.
 */
export function parseCallers(text: string, files: ReadonlySet<string>, root?: string): { header: number | undefined; sites: Site[]; hidden: number; unseen: number } {
  const lines = text.split('\n');
  const header = /(\d+) calls?\b/.exec(lines[0] ?? '')?.[1];
  const sites: Site[] = [];
  let hidden = 0;
  let unseen = 0;
  for (const l of lines) {
    const m = /^\s*(\S[^:]*): (\d.*)$/.exec(l);
    if (m && !files.has(m[1]!) && root && /[/.]/.test(m[1]!) && existsSync(path.join(root, m[1]!))) {
      for (const part of m[2]!.split('; ')) unseen += /^\+(\d+) more/.test(part) ? Number(/^\+(\d+)/.exec(part)![1]) : /^\d+/.test(part) ? Number(/\(×(\d+)\)/.exec(part)?.[1] ?? 1) : 0;
      continue;
    }
    if (!m || !files.has(m[1]!)) continue;
    for (const part of m[2]!.split('; ')) {
      const more = /^\+(\d+) more/.exec(part);
      if (more) hidden += Number(more[1]);
      const s = /^(\d+)(.*)$/.exec(part);
      if (!s) continue;
      const rest = s[2]!;
      const caller = /\(top level\)/.test(rest) ? null : (/ in ([^\s(]+)/.exec(rest)?.[1] ?? undefined);
      sites.push({ file: m[1]!, line: Number(s[1]), caller, candidate: /\boverride\b/.test(rest) });
    }
  }
  return { header: header === undefined ? undefined : Number(header), sites, hidden, unseen };
}

/** The callees answer as data: the definition it answered for, and each called name with its listed locations. */
export function parseCallees(text: string): { file: string | undefined; start: number; end: number; names: Map<string, string[]> } {
  const lines = text.split('\n');
  const head = /\(([^\s:()]+):(\d+)-(\d+)\)/.exec(lines[0] ?? '');
  const names = new Map<string, string[]>();
  for (const l of lines.slice(1)) {
    const m = /^\s*([\w$.]+?)(?: ×\d+)?(?: → (.*)| \(outside the project\)| \([^)]*\))?$/.exec(l.trim());
    if (!m) continue;
    const name = m[1]!.split('.').pop()!;
    if (names.has(name)) continue;
    names.set(
      name,
      (m[2] ?? '')
        .split(', ')
        .map((x) => /^([^\s:]+):\d+/.exec(x)?.[1])
        .filter((x): x is string => !!x),
    );
  }
  return { file: head?.[1], start: Number(head?.[2] ?? 0), end: Number(head?.[3] ?? 0), names };
}

type Explore = (args: Record<string, unknown>) => Promise<string>;

async function withCtxgate<T>(runtime: Runtime, name: string, root: string, body: (explore: Explore) => Promise<T>): Promise<T> {
  const dataDir = process.env.BENCH_DATA_DIR ? path.join(process.env.BENCH_DATA_DIR, name) : mkdtempSync(path.join(tmpdir(), 'ctxgate-bench-calls-'));
  mkdirSync(dataDir, { recursive: true });
  const env = { get: (n: string) => (n === 'CTXGATE_DATA_DIR' ? dataDir : runtime.env.get(n)), toObject: () => ({ ...runtime.env.toObject(), CTXGATE_DATA_DIR: dataDir }) };
  const app = createAppContext({ ...runtime, env }, { projectRoot: root, debug: false, graphBackend: 'builtin' });
  const started = performance.now();
  await app.code.refresh();
  console.log(`${name}: ${root}; code index built in ${Math.round(performance.now() - started)} ms`);
  const registry = createToolRegistry(TOOLS);
  const explore: Explore = async (args) => {
    const r = await registry.call('explore', args, { app, session: createClientSession(crypto.randomUUID()), signal: new AbortController().signal, progress: async () => undefined });
    return r.content.map((c) => c.text).join('\n');
  };
  try {
    return await body(explore);
  } finally {
    await app.lifecycle.shutdown('bench done');
    if (!process.env.BENCH_DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
  }
}

const verbose = (s: string) => process.env.BENCH_VERBOSE && console.log(s);
const key = (file: string, line: number) => `${file}:${line}`;
const TEST_FILE = /(^|\/)(tests?|testdata)\/|_test\.go$|(^|\/)test_[^/]*\.py$/;

async function callersRun(runtime: Runtime, corpus: Corpus, n: number, seed: number): Promise<string> {
  const root = corpus.root();
  const rows = corpus.truth(root);
  const defs = rows.filter((r): r is Declared => r.t === 'def');
  const calls = rows.filter((r): r is Call => r.t === 'call');
  const files = new Set(defs.map((d) => d.file));
  const callsOf = new Map<string, Call[]>();
  for (const c of calls) if (c.target) callsOf.set(key(c.target.file, c.target.line), [...(callsOf.get(key(c.target.file, c.target.line)) ?? []), c]);
  const callsAtLine = new Map<string, Call[]>();
  for (const c of calls) callsAtLine.set(key(c.file, c.line), [...(callsAtLine.get(key(c.file, c.line)) ?? []), c]);
  const declaredNamed = new Map<string, Declared[]>();
  for (const d of defs) declaredNamed.set(d.name, [...(declaredNamed.get(d.name) ?? []), d]);
  const typeKinds = new Set(['class', 'type']);
  const ownersNamed = new Map<string, number>();
  for (const d of defs) if (typeKinds.has(d.kind)) ownersNamed.set(d.name, (ownersNamed.get(d.name) ?? 0) + 1);
  const next = seededRandom(seed);

  // Owner.method: names several owners declare; the owner's name unique; called at least once.
  const methods = defs.filter((d) => {
    if (d.kind !== 'method' || !d.container || d.name.startsWith('__') || TEST_FILE.test(d.file)) return false;
    if (ownersNamed.get(d.container) !== 1) return false;
    const same = declaredNamed.get(d.name)!.filter((o) => o.kind === 'method');
    if (same.filter((o) => o.container === d.container).length !== 1) return false;
    return new Set(same.map((o) => o.container)).size >= 2 && (callsOf.get(key(d.file, d.line))?.length ?? 0) > 0;
  });
  const asked = sample(methods, n, next);
  // Unique names: one declaration of any kind in the corpus, a function or method, called at least
  // once, and no call of the name that the parser binds elsewhere (a builtin `open`, another library's `Close`).
  const boundElsewhere = new Set(calls.filter((c) => c.resolved && (!c.target || c.target.name !== c.name)).map((c) => c.name));
  const unique = sample(
    defs.filter((d) => (d.kind === 'function' || d.kind === 'method') && d.name.length >= 4 && !d.name.startsWith('__') && declaredNamed.get(d.name)!.length === 1 && !boundElsewhere.has(d.name) && (callsOf.get(key(d.file, d.line))?.length ?? 0) > 0 && !TEST_FILE.test(d.file)),
    n,
    next,
  );
  const resolvedShare = calls.filter((c) => c.resolved).length / Math.max(1, calls.length);
  console.log(`${corpus.name}: ${defs.length} declarations, ${calls.length} calls (${Math.round(resolvedShare * 100)}% resolved by the parser); ${methods.length} Owner.method candidates, asking ${asked.length}; ${unique.length} unique names`);

  return withCtxgate(runtime, corpus.name, root, async (explore) => {
    const m = { candidates: 0, trueLines: 0, found: 0, listed: 0, right: 0, unjudged: 0, hidden: 0, headerExact: 0, headers: 0 };
    for (const d of asked) {
      const anchor = `${d.container}.${d.name}`;
      const truth = callsOf.get(key(d.file, d.line))!;
      const trueLines = new Set(truth.map((c) => key(c.file, c.line)));
      const text = await explore({ question: `what calls ${anchor}`, anchor, relation: 'callers' });
      const r = parseCallers(text, files, root);
      const listed = new Set(r.sites.filter((s) => !s.candidate).map((s) => key(s.file, s.line)));
      m.candidates += r.sites.filter((s) => s.candidate).length;
      let right = 0;
      let unjudged = 0;
      const wrong: string[] = [];
      const unjudgedLines: string[] = [];
      for (const l of listed) {
        if (trueLines.has(l)) right++;
        else if ((callsAtLine.get(l) ?? []).some((c) => c.name === d.name && !c.resolved)) {
          unjudged++;
          unjudgedLines.push(l);
        } else wrong.push(l);
      }
      m.trueLines += trueLines.size;
      m.found += right;
      m.listed += listed.size - unjudged;
      m.right += right;
      m.unjudged += unjudged;
      m.hidden += r.hidden;
      m.headers++;
      // Calls in files the truth did not check are not counted against the header.
      const header = r.header === undefined ? undefined : r.header - r.unseen;
      if (header === truth.length) m.headerExact++;
      if (right < trueLines.size || wrong.length || header !== truth.length) {
        verbose(`  ${anchor} (${d.file}:${d.line}): ${right}/${trueLines.size} true lines listed, ${wrong.length} wrong, ${unjudged} unjudged; header ${r.header ?? 'none'}${r.unseen ? ` (${r.unseen} in files the truth did not check)` : ''} vs ${truth.length} calls`);
        for (const l of [...trueLines].filter((x) => !listed.has(x)).slice(0, 5)) verbose(`      missed ${l}`);
        for (const l of unjudgedLines.slice(0, 5)) verbose(`      unjudged ${l}`);
        for (const l of wrong.slice(0, 5)) verbose(`      wrong  ${l}${(callsAtLine.get(l) ?? []).filter((c) => c.name === d.name).map((c) => ` → ${c.target ? `${c.target.container}.${c.target.name}` : 'outside'}`).join('')}`);
      }
    }
    const u = { listed: 0, right: 0, unjudged: 0, callerJudged: 0, callerRight: 0 };
    for (const d of unique) {
      const truth = callsOf.get(key(d.file, d.line))!;
      const byLine = new Map(truth.map((c) => [key(c.file, c.line), c]));
      const r = parseCallers(await explore({ question: `what calls ${d.name}`, anchor: d.name, relation: 'callers' }), files);
      for (const s of r.sites) {
        const t = byLine.get(key(s.file, s.line));
        if (!t) {
          if ((callsAtLine.get(key(s.file, s.line)) ?? []).some((c) => c.name === d.name && !c.resolved)) u.unjudged++;
          else {
            u.listed++;
            verbose(`  unique ${d.name}: wrong site ${key(s.file, s.line)}`);
          }
          continue;
        }
        u.listed++;
        u.right++;
        if (!t.caller || s.caller === undefined) continue;
        u.callerJudged++;
        const said = s.caller?.split('.') ?? [];
        const ok = said.at(-1) === t.caller.name && (said.length < 2 || said.at(-2) === t.caller.container);
        if (ok) u.callerRight++;
        else verbose(`  unique ${d.name}: ${key(s.file, s.line)} said in ${s.caller}, parser says ${t.caller.container ? `${t.caller.container}.` : ''}${t.caller.name}`);
      }
    }
    const line = `${corpus.name.padEnd(10)} | ${pct(m.found, m.trueLines).padEnd(15)} | ${pct(m.right, m.listed).padEnd(15)} | ${pct(m.headerExact, m.headers).padEnd(12)} | ${String(m.hidden).padEnd(6)} | ${String(m.unjudged).padEnd(8)} | ${String(m.candidates).padEnd(10)} | ${pct(u.right, u.listed).padEnd(15)} | ${pct(u.callerRight, u.callerJudged)}`;
    return line;
  });
}

/** The TypeScript corpus: effect's sources, and the checker's view of every top-level function's calls. */
async function calleesRun(runtime: Runtime, n: number, seed: number): Promise<string> {
  const from = effectSources();
  const root = copied('typescript', from, ['.']);
  const rootNames = filesUnder(root, (rel) => rel.endsWith('.ts')).map((f) => path.join(root, f));
  const program = ts.createProgram(rootNames, { target: ts.ScriptTarget.ESNext, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, strict: true, noEmit: true, skipLibCheck: true, lib: ['lib.esnext.d.ts'] });
  const checker = program.getTypeChecker();

  /** Top-level functions: `function f` and `const f = …` whose initializer makes calls; (stem, name) unique. */
  interface Fn {
    file: string;
    name: string;
    line: number;
    node: ts.Node;
    sf: ts.SourceFile;
  }
  const fns: Fn[] = [];
  for (const sf of program.getSourceFiles()) {
    if (!sf.fileName.startsWith(`${root}/`)) continue;
    const file = path.relative(root, sf.fileName);
    for (const st of sf.statements) {
      const add = (name: ts.Identifier, node: ts.Node) => fns.push({ file, name: name.text, line: sf.getLineAndCharacterOfPosition(name.getStart(sf)).line + 1, node, sf });
      if (ts.isFunctionDeclaration(st) && st.name && st.body) add(st.name, st);
      else if (ts.isVariableStatement(st)) for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name) && d.initializer) add(d.name, d);
    }
  }
  const stem = (f: string) => path.basename(f).replace(/\..*$/, '');
  const byStemName = new Map<string, number>();
  for (const f of fns) byStemName.set(`${stem(f.file)}.${f.name}`, (byStemName.get(`${stem(f.file)}.${f.name}`) ?? 0) + 1);

  /** Each called name of a function: the files the checker puts it in, or 'local' / 'outside'. */
  const calledNames = (fn: Fn): Map<string, Set<string>> => {
    const out = new Map<string, Set<string>>();
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node)) {
        const callee = ts.isPropertyAccessExpression(node.expression) ? node.expression.name : ts.isIdentifier(node.expression) ? node.expression : undefined;
        if (callee && ts.isIdentifier(callee)) {
          let symbol = checker.getSymbolAtLocation(callee);
          if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
          const decl = symbol?.declarations?.[0];
          if (decl) {
            const where = decl.getSourceFile().fileName;
            const inside = where === fn.sf.fileName && decl.getStart() >= fn.node.getStart() && decl.getEnd() <= fn.node.getEnd();
            const place = inside ? 'local' : where.startsWith(`${root}/`) ? path.relative(root, where) : 'outside';
            out.set(callee.text, (out.get(callee.text) ?? new Set()).add(place));
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(fn.node);
    return out;
  };

  const candidates = fns.filter((f) => byStemName.get(`${stem(f.file)}.${f.name}`) === 1 && calledNames(f).size >= 2);
  const asked = sample(candidates, n, seededRandom(seed));
  console.log(`typescript: ${fns.length} top-level functions and consts, ${candidates.length} with a unique stem.name and two or more called names; asking ${asked.length}`);
  return withCtxgate(runtime, 'typescript', root, async (explore) => {
    const s = { project: 0, right: 0, listed: 0, otherDef: 0, notProject: 0, keptOut: 0 };
    for (const fn of asked) {
      const anchor = `${stem(fn.file)}.${fn.name}`;
      const r = parseCallees(await explore({ question: `what does ${anchor} call`, anchor, relation: 'callees' }));
      if (r.file !== fn.file || fn.line < r.start || fn.line > r.end) {
        s.otherDef++;
        verbose(`  ${anchor}: answered for ${r.file ?? 'nothing'}:${r.start}-${r.end}, not ${fn.file}:${fn.line}`);
        continue;
      }
      for (const [name, places] of calledNames(fn)) {
        const got = r.names.get(name);
        const project = [...places].filter((p) => p !== 'local' && p !== 'outside');
        if (project.length === places.size) {
          s.project++;
          if (got) s.listed++;
          if (got?.[0] && project.includes(got[0])) s.right++;
          else verbose(`  ${anchor}: ${name} → ${got ? got.join(', ') || '(no location)' : 'not listed'}; checker: ${project.join(', ')}`);
        } else if (project.length === 0) {
          s.notProject++;
          if (!got?.length) s.keptOut++;
          else verbose(`  ${anchor}: ${name} (${[...places].join(', ')}) given ${got.join(', ')}`);
        }
      }
    }
    return `typescript | callees: first location in the right file ${pct(s.right, s.project)}, listed ${pct(s.listed, s.project)}; locals/params/outside given no project location ${pct(s.keptOut, s.notProject)}; answered for another definition: ${s.otherDef}/${asked.length}`;
  });
}

const which = process.argv[2] ?? 'all';
const n = Number(process.argv[3] ?? 30);
const seed = Number(process.argv[4] ?? 22);
const runtime = await loadRuntime();
const lines: string[] = [];
for (const corpus of CORPORA) if (which === 'all' || which === corpus.name) lines.push(await callersRun(runtime, corpus, n, seed));
let calleesLine: string | undefined;
if (which === 'all' || which === 'typescript') calleesLine = await calleesRun(runtime, n, seed);
console.log(`\nnode --import tsx scripts/bench-calls.ts ${which} ${n} ${seed}`);
if (lines.length) {
  console.log('corpus     | Owner.method    | owner           | "N calls"    | hidden | unjudged | override   | unique-name     | unique-name');
  console.log('           | recall          | precision       | exact        | +more  | (python) | candidates | precision       | enclosing fn');
  for (const l of lines) console.log(l);
}
if (calleesLine) console.log(calleesLine);
