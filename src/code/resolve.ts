// Import resolution: what file (or, for Go, what package folder) an import names, from the set of
// files the catalogue knows. TS/JS relative paths with extensions and index files, and tsconfig
// `baseUrl`/`paths` mappings;
// Python modules (relative and absolute, src layouts included); Go packages through go.mod's module
// path; Java classes by package path; Rust `mod` and `crate::` paths; C/C++ includes (next to the file, then by path suffix).
import * as path from 'node:path';
import type { LanguageId } from './languages.ts';
import { mappedCandidates, type TsPaths } from './tsconfig-paths.ts';

export interface PathSet {
  has(file: string): boolean;
  /** Known files whose path ends with `/suffix` (or is `suffix`). */
  withSuffix(suffix: string): string[];
  /** Go: the module path from go.mod, when there is one. */
  goModule?: string;
  /** TS/JS: the root tsconfig's baseUrl and paths, when it has them. */
  tsPaths?: TsPaths;
}

export function createPathSet(files: Iterable<string>, goModule?: string, tsPaths?: TsPaths): PathSet & { add(file: string): void; delete(file: string): void } {
  const all = new Set<string>();
  const byBase = new Map<string, string[]>();
  const add = (f: string) => {
    if (all.has(f)) return;
    all.add(f);
    const base = f.slice(f.lastIndexOf('/') + 1);
    const list = byBase.get(base);
    if (list) list.push(f);
    else byBase.set(base, [f]);
  };
  for (const f of files) add(f);
  return {
    goModule,
    tsPaths,
    has: (f) => all.has(f),
    add,
    delete(f) {
      if (!all.delete(f)) return;
      const base = f.slice(f.lastIndexOf('/') + 1);
      const list = byBase.get(base)?.filter((x) => x !== f);
      if (list?.length) byBase.set(base, list);
      else byBase.delete(base);
    },
    withSuffix(suffix) {
      const base = suffix.slice(suffix.lastIndexOf('/') + 1);
      return (byBase.get(base) ?? []).filter((f) => f === suffix || f.endsWith(`/${suffix}`));
    },
  };
}

const JS_EXTS = ['.ts', '.tsx', '.d.ts', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts'];

function firstKnown(files: PathSet, candidates: string[]): string | undefined {
  return candidates.find((c) => files.has(c));
}

/** A module path as a file: itself, with each extension, or a folder's index file. */
function jsFile(files: PathSet, base: string): string | undefined {
  const stem = base.replace(/\.(m|c)?jsx?$/, '');
  return firstKnown(files, [base, ...JS_EXTS.map((e) => stem + e), ...JS_EXTS.map((e) => `${base}/index${e}`)]);
}

function resolveJs(files: PathSet, from: string, source: string): string | undefined {
  if (source.startsWith('.')) return jsFile(files, path.posix.normalize(path.posix.join(path.posix.dirname(from), source)));
  // A bare import is a package unless the project's tsconfig maps it to its own files.
  if (!files.tsPaths) return undefined;
  for (const candidate of mappedCandidates(files.tsPaths, source)) {
    const found = jsFile(files, candidate);
    if (found) return found;
  }
  return undefined;
}

function resolvePython(files: PathSet, from: string, source: string): string | undefined {
  const dots = /^\.*/.exec(source)![0].length;
  const parts = source.slice(dots).split('.').filter(Boolean);
  if (dots > 0) {
    let dir = path.posix.dirname(from);
    for (let i = 1; i < dots; i++) dir = path.posix.dirname(dir);
    const rel = [dir === '.' ? '' : dir, ...parts].filter(Boolean).join('/');
    return firstKnown(files, [`${rel}.py`, `${rel}/__init__.py`, `${rel}.pyi`]);
  }
  const rel = parts.join('/');
  if (!rel) return undefined;
  const direct = firstKnown(files, [`${rel}.py`, `${rel}/__init__.py`]);
  if (direct) return direct;
  // src layouts and nested packages: the shortest known path ending with the module's path.
  const found = [...files.withSuffix(`${rel}.py`), ...files.withSuffix(`${rel}/__init__.py`)].sort((a, b) => a.length - b.length);
  return found[0];
}

function resolveGo(files: PathSet, source: string): string | undefined {
  const mod = files.goModule;
  if (!mod || !(source === mod || source.startsWith(`${mod}/`))) return undefined;
  const dir = source.slice(mod.length + 1);
  // A package is a folder: answer with the folder (the caller lists its files).
  return dir ? `${dir}/` : './';
}

function resolveRust(files: PathSet, from: string, source: string): string | undefined {
  const dir = path.posix.dirname(from);
  const file = path.posix.basename(from);
  const own = /^(mod|lib|main)\.rs$/.test(file) ? dir : `${dir}/${file.replace(/\.rs$/, '')}`;
  const clean = (p: string) => (p.startsWith('./') ? p.slice(2) : p);
  if (/^[A-Za-z_]\w*$/.test(source)) {
    // `mod name;`
    return firstKnown(files, [clean(`${own}/${source}.rs`), clean(`${own}/${source}/mod.rs`)]);
  }
  const m = /^(crate|super|self)::([\w:]+)/.exec(source);
  if (!m) return undefined;
  const segments = m[2]!.split('::');
  let base: string;
  if (m[1] === 'crate') {
    const srcAt = from.lastIndexOf('src/');
    base = srcAt >= 0 ? from.slice(0, srcAt + 3) : '.';
  } else base = m[1] === 'super' ? path.posix.dirname(own) : own;
  // The longest prefix of the path that names a module file.
  for (let n = segments.length; n > 0; n--) {
    const rel = clean(`${base}/${segments.slice(0, n).join('/')}`);
    const hit = firstKnown(files, [`${rel}.rs`, `${rel}/mod.rs`]);
    if (hit) return hit;
  }
  return undefined;
}

function resolveInclude(files: PathSet, from: string, source: string): string | undefined {
  const local = path.posix.normalize(path.posix.join(path.posix.dirname(from), source));
  if (files.has(local)) return local;
  const found = files.withSuffix(source).sort((a, b) => Number(b.includes('include/')) - Number(a.includes('include/')) || a.length - b.length);
  return found[0];
}

/** Java: `a.b.C` is the file ending a/b/C.java; a static import `a.b.C.m` is C's file. */
function resolveJava(files: PathSet, source: string): string | undefined {
  const parts = source.replace(/^static\s+/, '').split('.');
  for (const n of [parts.length, parts.length - 1]) {
    if (n < 1) continue;
    const found = files.withSuffix(`${parts.slice(0, n).join('/')}.java`).sort((a, b) => a.length - b.length);
    if (found[0]) return found[0];
  }
  return undefined;
}

/** The file (or Go package folder, ending in `/`) an import resolves to, or undefined. */
export function resolveImport(files: PathSet, language: LanguageId, from: string, source: string): string | undefined {
  switch (language) {
    case 'typescript':
    case 'tsx':
    case 'javascript':
      return resolveJs(files, from, source);
    case 'python':
      return resolvePython(files, from, source);
    case 'go':
      return resolveGo(files, source);
    case 'java':
      return resolveJava(files, source);
    case 'rust':
      return resolveRust(files, from, source);
    case 'c':
    case 'cpp':
      return resolveInclude(files, from, source);
    default:
      return undefined;
  }
}
