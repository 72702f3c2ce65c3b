// A project's TypeScript path mapping: `compilerOptions.baseUrl` and `paths` from the root
// tsconfig.json (or jsconfig.json), following `extends` to local files, so that `@app/orders` or
// `components/Button` resolve to files as the compiler would resolve them.
import * as path from 'node:path';
import { parse } from 'jsonc-parser';
import type { RuntimeFs } from '../runtime/types.ts';

export interface TsPaths {
  /** Folder (relative to the project root, `/`-separated, '' for the root) that mapped paths start from. */
  baseUrl: string;
  /** `paths` entries in file order: a pattern with at most one `*`, and its targets. */
  paths: { pattern: string; targets: string[] }[];
  /** Whether `baseUrl` was set (then a bare import may also name a file under it). */
  hasBaseUrl: boolean;
}

interface CompilerOptions {
  baseUrl?: unknown;
  paths?: unknown;
}

const MAX_EXTENDS = 5;

/** The path mapping of the project at `root`, or undefined when it has none. */
export function readTsPaths(fs: Pick<RuntimeFs, 'readTextFileSync'>, root: string): TsPaths | undefined {
  for (const name of ['tsconfig.json', 'jsconfig.json']) {
    const found = readConfig(fs, root, path.join(root, name), 0);
    if (found) return found;
  }
  return undefined;
}

function readConfig(fs: Pick<RuntimeFs, 'readTextFileSync'>, root: string, file: string, depth: number): TsPaths | undefined {
  let json: { extends?: unknown; compilerOptions?: CompilerOptions } | undefined;
  try {
    json = parse(fs.readTextFileSync(file), [], { allowTrailingComma: true });
  } catch {
    return undefined;
  }
  if (!json || typeof json !== 'object') return undefined;
  const dir = path.dirname(file);
  // A local `extends` gives the defaults this file's own options override (package names are skipped).
  const parent = typeof json.extends === 'string' && json.extends.startsWith('.') && depth < MAX_EXTENDS ? readConfig(fs, root, path.resolve(dir, json.extends.endsWith('.json') ? json.extends : `${json.extends}.json`), depth + 1) : undefined;
  const options = json.compilerOptions ?? {};
  const hasBaseUrl = typeof options.baseUrl === 'string';
  const baseDir = hasBaseUrl ? path.resolve(dir, options.baseUrl as string) : undefined;
  let paths = parent?.paths ?? [];
  let pathsDir = parent ? path.join(root, parent.baseUrl) : dir;
  if (options.paths && typeof options.paths === 'object') {
    paths = Object.entries(options.paths as Record<string, unknown>).flatMap(([pattern, targets]) =>
      Array.isArray(targets) && (pattern.match(/\*/g)?.length ?? 0) <= 1 ? [{ pattern, targets: targets.filter((t): t is string => typeof t === 'string') }] : [],
    );
    // Without baseUrl, `paths` targets are relative to the file that declares them.
    pathsDir = baseDir ?? dir;
  } else if (baseDir) {
    pathsDir = baseDir;
  }
  if (!paths.length && !hasBaseUrl && !parent?.hasBaseUrl) return parent;
  const relative = path.relative(root, baseDir ?? pathsDir).split(path.sep).join('/');
  if (relative.startsWith('..')) return undefined;
  return { baseUrl: relative, paths, hasBaseUrl: hasBaseUrl || Boolean(parent?.hasBaseUrl) };
}

/** Where a bare import may point under the mapping, most specific pattern first (as tsc picks). */
export function mappedCandidates(mapping: TsPaths, source: string): string[] {
  const matches: { prefixLength: number; bases: string[] }[] = [];
  for (const { pattern, targets } of mapping.paths) {
    const star = pattern.indexOf('*');
    if (star < 0) {
      if (pattern === source) matches.push({ prefixLength: pattern.length, bases: targets });
      continue;
    }
    const prefix = pattern.slice(0, star);
    const suffix = pattern.slice(star + 1);
    if (source.length >= prefix.length + suffix.length && source.startsWith(prefix) && source.endsWith(suffix)) {
      const middle = source.slice(prefix.length, source.length - suffix.length);
      matches.push({ prefixLength: prefix.length, bases: targets.map((t) => t.replace('*', middle)) });
    }
  }
  matches.sort((a, b) => b.prefixLength - a.prefixLength);
  const out = matches.flatMap((m) => m.bases.map((b) => path.posix.normalize(path.posix.join(mapping.baseUrl, b))));
  if (mapping.hasBaseUrl) out.push(path.posix.normalize(path.posix.join(mapping.baseUrl, source)));
  return out.filter((p) => !p.startsWith('..'));
}
