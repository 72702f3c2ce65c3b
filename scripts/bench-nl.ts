// Natural-language benchmark (issue 20, items 4 and 5) on code nobody here wrote: questions built
// from doc comments and docstrings, asked through `locate` and `search`, and bare names asked through
// `locate` with the default kind.
//
//   node --import tsx scripts/bench-nl.ts [typescript|python|go|java|all] [questions=30] [names=20] [seed=20]
//   BENCH_DATA_DIR=/tmp/x …   keeps the data folders (and their code indexes) from one run to the next
//
// Corpora (copied once into /tmp/bench-nl-src/<language>, then reused):
//   typescript  the `effect` package's sources (/tmp/bench-effect/node_modules/effect/src, npm install effect@3)
//   python      /usr/lib/python3.11: json, email, asyncio, http, collections and a few top-level modules
//   go          /usr/share/go-1.19/src (Debian golang-1.19-src): net/http, strings, bufio, encoding/json
//   java        java.base/java/util/*.java from the JDK's lib/src.zip (Debian openjdk-17-source)
//
// Ground truth comes from each language's own parser, never from ctxgate: the TypeScript compiler API,
// Python's `ast` (scripts/bench-nl/python-docs.py), Go's go/parser (scripts/bench-nl/go-docs.go, needs
// Debian golang-1.19-go) and javac's tree API (scripts/bench-nl/JavaDocs.java).
//
// Questions: a function's or method's doc, cleaned of markup (``x``, {@code x}, `x`, HTML tags), cut at
// its first sentence (a period followed by a space, or the first blank line) without the period; kept
// when it has 4–25 words, is at most 200 characters and no other definition of the corpus has the same
// sentence; test files are not asked about. Sampled with a fixed seed.
// A question is answered in the top 3 when one of the first three result rows lies in the expected
// file between the first line of its doc comment (the `def` line for a Python docstring) and the
// definition's last line: a definition row, or a line the doc sentence matched literally.
// A refused question counts as a miss.
//
// Definitions first: bare names of functions and methods, half with one definition in the corpus and
// half with several (in several classes or files), asked as `locate {query: NAME}`. It counts when the
// first row is a definition whose line lies inside a declaration of that name as the language's parser
// sees it (any kind: a function, a method, a field, a class, a variable).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
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

/** One declaration as the language's own parser sees it. */
interface Declared {
  file: string;
  name: string;
  container: string | null;
  kind: string;
  /** Name line, and the span: first line of the doc comment through the last line. */
  line: number;
  docStart: number;
  end: number;
  doc: string;
}

interface Corpus {
  name: string;
  /** Prepares the folder (once) and returns it. */
  root(): string;
  /** Every declaration of the folder. */
  declarations(root: string): Declared[];
}

const SRC = '/tmp/bench-nl-src';
const HERE = path.dirname(new URL(import.meta.url).pathname);
const TEST_FILE = /(^|\/)(tests?|testdata)\/|_test\.go$|(^|\/)test_[^/]*\.py$/;

function copied(name: string, from: string, parts: string[]): string {
  const dir = path.join(SRC, name);
  if (!existsSync(dir)) {
    for (const part of parts) cpSync(path.join(from, part), path.join(dir, part), { recursive: true });
  }
  return dir;
}

function jsonLines(stdout: string): Declared[] {
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Declared);
}

function filesUnder(root: string, ext: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(ext)) out.push(p);
    }
  };
  walk(root);
  return out.sort();
}

/** TypeScript: every named declaration, by the compiler's own parser; overloads are one span. */
function typescriptDeclarations(root: string): Declared[] {
  const out: Declared[] = [];
  for (const file of filesUnder(root, '.ts')) {
    const text = readFileSync(file, 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const lineOf = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line + 1;
    const rel = path.relative(root, file);
    const visit = (node: ts.Node, container: string | null) => {
      const named = node as ts.NamedDeclaration;
      const isDecl =
        ts.isFunctionDeclaration(node) ||
        ts.isMethodDeclaration(node) ||
        ts.isMethodSignature(node) ||
        ts.isPropertySignature(node) ||
        ts.isPropertyDeclaration(node) ||
        ts.isVariableDeclaration(node) ||
        ts.isClassDeclaration(node) ||
        ts.isInterfaceDeclaration(node) ||
        ts.isTypeAliasDeclaration(node) ||
        ts.isEnumDeclaration(node) ||
        ts.isModuleDeclaration(node);
      if (isDecl && named.name && ts.isIdentifier(named.name)) {
        // The doc comment sits on the statement (a variable's) or on the declaration itself.
        const holder = ts.isVariableDeclaration(node) ? node.parent.parent : node;
        const jsDoc = ((holder as { jsDoc?: ts.JSDoc[] }).jsDoc ?? []).at(-1);
        const doc = jsDoc ? (ts.getTextOfJSDocComment(jsDoc.comment) ?? '') : '';
        const start = jsDoc ? jsDoc.getStart(sf) : holder.getStart(sf);
        const name = named.name.text;
        const kind = ts.isFunctionDeclaration(node) ? 'function' : ts.isMethodDeclaration(node) || ts.isMethodSignature(node) ? 'method' : ts.isVariableDeclaration(node) ? 'variable' : 'other';
        const prev = out.at(-1);
        // An overload's signatures and its implementation: one definition from the first doc to the body's end.
        if (kind === 'function' && prev && prev.file === rel && prev.name === name && prev.kind === 'function') prev.end = lineOf(holder.getEnd());
        else out.push({ file: rel, name, container, kind, line: lineOf(named.name.getStart(sf)), docStart: lineOf(start), end: lineOf(holder.getEnd()), doc });
      }
      const inner = (ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node) || ts.isModuleDeclaration(node)) && named.name && ts.isIdentifier(named.name) ? named.name.text : container;
      ts.forEachChild(node, (c) => visit(c, inner));
    };
    visit(sf, null);
  }
  return out;
}

const CORPORA: Corpus[] = [
  {
    name: 'typescript',
    root() {
      const from = effectSources();
      return copied('typescript', from, ['.']);
    },
    declarations: typescriptDeclarations,
  },
  {
    name: 'python',
    root: () => copied('python', '/usr/lib/python3.11', ['json', 'email', 'asyncio', 'http', 'collections', 'argparse.py', 'textwrap.py', 'shutil.py', 'subprocess.py', 'pathlib.py', 'functools.py', 'heapq.py', 'bisect.py', 'tempfile.py']),
    declarations: (root) => jsonLines(execFileSync('python3', [path.join(HERE, 'bench-nl/python-docs.py'), root], { encoding: 'utf8', maxBuffer: 1 << 28 })),
  },
  {
    name: 'go',
    root: () => copied('go', '/usr/share/go-1.19/src', ['net/http', 'strings', 'bufio', 'encoding/json']),
    declarations(root) {
      const go = existsSync('/usr/lib/go-1.19/bin/go') ? '/usr/lib/go-1.19/bin/go' : 'go';
      return jsonLines(execFileSync(go, ['run', path.join(HERE, 'bench-nl/go-docs.go'), root], { encoding: 'utf8', maxBuffer: 1 << 28 }));
    },
  },
  {
    name: 'java',
    root: () => javaUtilSources(path.join(SRC, 'java')),
    declarations: (root) => jsonLines(execFileSync('java', [path.join(HERE, 'bench-nl/JavaDocs.java'), root], { encoding: 'utf8', maxBuffer: 1 << 28 })),
  },
];

/** Doc markup as a reader would type the words: ``x``, :meth:`x`, {@code x}, {@link A#b label}, `x`, <tags>. */
function plain(doc: string): string {
  return doc
    .replace(/:[a-z]+:`~?([^`]+)`/g, '$1')
    .replace(/``([^`]+)``/g, '$1')
    .replace(/\{@(?:code|literal)\s+([^}]*)\}/g, '$1')
    .replace(/\{@(?:link|linkplain)\s+([^}\s]+)(?:\s+([^}]*))?\}/g, (_, ref: string, label?: string) => label ?? ref.replace(/^.*#/, '').replace(/\(.*$/, ''))
    .replace(/\{@\w+\s*([^}]*)\}/g, '$1')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The doc's first sentence as a question, or undefined when it makes none (see the header). */
export function firstSentence(doc: string): string | undefined {
  const paragraph = plain(doc).trim().split(/\n\s*\n/)[0] ?? '';
  const flat = paragraph.replace(/\s+/g, ' ').trim();
  const cut = /\.(?:\s|$)/.exec(flat);
  const sentence = (cut ? flat.slice(0, cut.index) : flat).trim();
  const words = sentence.split(' ').filter(Boolean).length;
  if (words < 4 || words > 25 || sentence.length > 200 || sentence.startsWith('@') || !/[a-z]/i.test(sentence)) return undefined;
  return sentence;
}


interface Row {
  file: string;
  line: number;
  kind?: string;
}

const pct = (n: number, of: number) => `${of ? Math.round((n / of) * 100) : 0}% (${n}/${of})`;

async function run(runtime: Runtime, corpus: Corpus, questions: number, names: number, seed: number): Promise<string> {
  const root = corpus.root();
  const declared = corpus.declarations(root);
  const dataDir = process.env.BENCH_DATA_DIR ? path.join(process.env.BENCH_DATA_DIR, corpus.name) : mkdtempSync(path.join(tmpdir(), 'ctxgate-bench-nl-'));
  mkdirSync(dataDir, { recursive: true });
  const env = { get: (n: string) => (n === 'CTXGATE_DATA_DIR' ? dataDir : runtime.env.get(n)), toObject: () => ({ ...runtime.env.toObject(), CTXGATE_DATA_DIR: dataDir }) };
  const app = createAppContext({ ...runtime, env }, { projectRoot: root, debug: false, graphBackend: 'builtin' });
  const started = performance.now();
  await app.code.refresh();
  const built = Math.round(performance.now() - started);
  const registry = createToolRegistry(TOOLS);
  const call = async (tool: string, args: Record<string, unknown>) => {
    const r = await registry.call(tool, args, { app, session: createClientSession(crypto.randomUUID()), signal: new AbortController().signal, progress: async () => undefined });
    const s = (r.structuredContent ?? {}) as { status?: string; results?: Row[] };
    return { ok: s.status === 'ok', rows: s.results ?? [] };
  };
  const bytes = filesUnder(root, '').reduce((sum, f) => sum + statSync(f).size, 0);
  console.log(`\n${corpus.name}: ${root} (${(bytes / 1e6).toFixed(1)} MB, ${declared.length} declarations); code index built in ${built} ms`);

  // Questions from docs: unique first sentences of functions and methods outside tests.
  const next = seededRandom(seed);
  const bySentence = new Map<string, Declared[]>();
  for (const d of declared) {
    if (d.kind !== 'function' && d.kind !== 'method' && d.kind !== 'variable') continue;
    const s = firstSentence(d.doc);
    if (s) bySentence.set(s, [...(bySentence.get(s) ?? []), d]);
  }
  const asked = sample(
    [...bySentence.entries()].filter(([, ds]) => ds.length === 1 && !TEST_FILE.test(ds[0]!.file)).map(([q, [d]]) => ({ q, d: d! })),
    questions,
    next,
  );
  const inside = (d: Declared) => (r: Row) => r.file === d.file && r.line >= d.docStart && r.line <= d.end;
  const score = { locate: 0, search: 0, locateRefused: 0, searchRefused: 0 };
  const misses: string[] = [];
  for (const { q, d } of asked) {
    const loc = await call('locate', { query: q });
    const sea = await call('search', { pattern: q });
    if (!loc.ok) score.locateRefused++;
    if (!sea.ok) score.searchRefused++;
    const l = loc.rows.slice(0, 3).some(inside(d));
    const s = sea.rows.slice(0, 3).some(inside(d));
    if (l) score.locate++;
    if (s) score.search++;
    if (!l || !s) misses.push(`  ${l ? '   ' : 'L'} ${s ? '   ' : 'S'} ${d.file}:${d.line} ${d.name}: "${q}" → ${(loc.rows[0] ? `${loc.rows[0].file}:${loc.rows[0].line}` : loc.ok ? 'nothing' : 'refused')}`);
  }
  if (process.env.BENCH_VERBOSE) for (const m of misses) console.log(m);

  // Definitions first: bare names of functions and methods, one definition or several.
  const byName = new Map<string, Declared[]>();
  for (const d of declared) byName.set(d.name, [...(byName.get(d.name) ?? []), d]);
  const callable = [...byName.entries()].filter(([n, ds]) => /^[A-Za-z_]\w*$/.test(n) && ds.some((d) => (d.kind === 'function' || d.kind === 'method') && !TEST_FILE.test(d.file)));
  const single = sample(callable.filter(([, ds]) => ds.length === 1), Math.ceil(names / 2), next);
  const several = sample(callable.filter(([, ds]) => new Set(ds.map((d) => `${d.file}\u0000${d.container ?? ''}`)).size > 1), Math.floor(names / 2), next);
  let first = 0;
  const wrong: string[] = [];
  for (const [name, ds] of [...single, ...several]) {
    const r = await call('locate', { query: name });
    const top = r.rows[0];
    if (top && top.kind === 'definition' && ds.some((d) => top.file === d.file && top.line >= d.docStart && top.line <= d.end)) first++;
    else wrong.push(`  ${name} (${ds.length} declarations) → ${top ? `${top.file}:${top.line} ${top.kind}` : r.ok ? 'nothing' : 'refused'}`);
  }
  if (process.env.BENCH_VERBOSE) for (const w of wrong) console.log(w);

  const line = `${corpus.name.padEnd(10)}  locate top-3 ${pct(score.locate, asked.length).padEnd(12)} (refused ${score.locateRefused})  search top-3 ${pct(score.search, asked.length).padEnd(12)} (refused ${score.searchRefused})  definition first ${pct(first, single.length + several.length)}`;
  console.log(line);
  await app.lifecycle.shutdown('bench done');
  if (!process.env.BENCH_DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
  return line;
}

const which = process.argv[2] ?? 'all';
const questions = Number(process.argv[3] ?? 30);
const names = Number(process.argv[4] ?? 20);
const seed = Number(process.argv[5] ?? 20);
const runtime = await loadRuntime();
const lines: string[] = [];
for (const corpus of CORPORA) if (which === 'all' || which === corpus.name) lines.push(await run(runtime, corpus, questions, names, seed));
console.log(`\nnode --import tsx scripts/bench-nl.ts ${which} ${questions} ${names} ${seed}`);
for (const l of lines) console.log(l);
