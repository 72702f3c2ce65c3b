import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from './helpers/env.ts';

// docs/architecture.md: the layers of src/, top to bottom. A folder imports folders of lower layers
// only; engine rooms may use each other (workspace's grep, exec's environment rules), and so may
// foundations, as long as no two folders end up in a circle. Type-only imports count: a type names a dependency as much as a value.
// A new folder must be placed here before it can land.
const LAYERS: readonly (readonly string[])[] = [
  ['cli'],
  ['transports'],
  ['clients'],
  ['server'],
  ['tools'],
  ['app'],
  ['retrieval', 'code', 'textindex', 'kb', 'exec', 'workspace', 'vcs', 'net', 'users'],
  ['storage', 'security', 'config', 'logging', 'text', 'time', 'workers'],
  ['runtime'],
];
/** Layers whose folders may import each other (no circles). */
const SIDEWAYS = new Set([...LAYERS[6]!, ...LAYERS[7]!]);

function layerOf(folder: string): number {
  return LAYERS.findIndex((layer) => layer.includes(folder));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    return d.isDirectory() ? sourceFiles(p) : /\.(ts|mts|js|mjs)$/.test(d.name) ? [p] : [];
  });
}

/** Relative import specifiers of a module, with their line numbers (static, re-export and dynamic). */
function importsOf(source: string): { specifier: string; line: number }[] {
  const out: { specifier: string; line: number }[] = [];
  source.split('\n').forEach((text, i) => {
    const m = /^\s*(?:import|export)\b[^'"]*?\bfrom\s+['"](\.[^'"]+)['"]/.exec(text) ?? /^\s*import\s+['"](\.[^'"]+)['"]/.exec(text) ?? /\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/.exec(text);
    if (m) out.push({ specifier: m[1]!, line: i + 1 });
  });
  return out;
}

type Edges = Map<string, Map<string, string[]>>;

/** Folder → imported folder → where (file:line), for every import that crosses a folder. */
function folderEdges(src: string, files: readonly { file: string; source: string }[]): Edges {
  const folderOf = (file: string) => {
    const parts = path.relative(src, file).split(path.sep);
    return parts.length > 1 ? parts[0]! : '';
  };
  const edges: Edges = new Map();
  for (const { file, source } of files) {
    const from = folderOf(file);
    for (const { specifier, line } of importsOf(source)) {
      const to = folderOf(path.resolve(path.dirname(file), specifier));
      if (!from || !to || from === to) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      const targets = edges.get(from)!;
      targets.set(to, [...(targets.get(to) ?? []), `${path.relative(src, file)}:${line}`]);
    }
  }
  return edges;
}

/** Everything wrong with a set of folder edges, one sentence each. */
function layeringProblems(edges: Edges, folders: readonly string[]): string[] {
  const problems: string[] = [];
  for (const folder of folders) if (layerOf(folder) < 0) problems.push(`src/${folder}/ is in no layer: place it in test/layers.test.ts and docs/architecture.md`);
  for (const [from, targets] of edges) {
    for (const [to, where] of targets) {
      const a = layerOf(from);
      const b = layerOf(to);
      if (a < 0 || b < 0) continue;
      const sideways = a === b && SIDEWAYS.has(from);
      if (b <= a && !sideways) problems.push(`${from}/ imports ${to}/, which sits above or beside it (${where.slice(0, 3).join(', ')})`);
    }
  }
  for (const circle of circles(edges)) problems.push(`folders import each other in a circle: ${circle.join(', ')}`);
  return problems;
}

/** Strongly connected groups of more than one folder (Tarjan). */
function circles(edges: Edges): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1) found.push(group.sort());
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('layers', () => {
  it('keeps every import of src/ pointing down the layers, with no folder circles', () => {
    const src = path.join(repoRoot, 'src');
    const files = sourceFiles(src).map((file) => ({ file, source: readFileSync(file, 'utf8') }));
    const folders = readdirSync(src, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    assert.deepEqual(layeringProblems(folderEdges(src, files), folders), []);
  });

  it('catches an engine room importing a tool, the app container or a surface, and a circle', () => {
    const src = '/p/src';
    const file = (rel: string, source: string) => ({ file: `${src}/${rel}`, source });
    const files = [
      file('kb/a.ts', "import type { ToolReply } from '../tools/registry.ts';"),
      file('exec/b.ts', "import type { AppContext } from '../app/context.ts';\nexport { x } from '../cli/command.ts';"),
      file('retrieval/c.ts', "const m = await import('../transports/http.ts');"),
      file('workspace/d.ts', "import { y } from '../vcs/git.ts';"),
      file('vcs/e.ts', "import { z } from '../workspace/walk.ts';"),
      file('tools/f.ts', "import { serve } from '../transports/serve.ts';"),
      file('storage/g.ts', "import { grep } from '../workspace/grep/index.ts';"),
    ];
    const problems = layeringProblems(folderEdges(src, files), ['kb', 'exec', 'retrieval', 'workspace', 'vcs', 'tools', 'storage', 'attic']);
    const expected = [
      'src/attic/ is in no layer',
      'kb/ imports tools/',
      'exec/ imports app/',
      'exec/ imports cli/',
      'retrieval/ imports transports/',
      'tools/ imports transports/',
      'storage/ imports workspace/',
      'folders import each other in a circle: vcs, workspace',
    ];
    for (const start of expected) assert.ok(problems.some((p) => p.startsWith(start)), `expected a problem starting "${start}" in:\n${problems.join('\n')}`);
    assert.equal(problems.length, expected.length, problems.join('\n'));
  });

  it('lets engine rooms use each other and every layer use the ones below', () => {
    const src = '/p/src';
    const files = [
      { file: `${src}/kb/a.ts`, source: "import { childEnv } from '../exec/env.ts';" },
      { file: `${src}/logging/f.ts`, source: "import { looksSensitive } from '../security/names.ts';" },
      { file: `${src}/tools/b.ts`, source: "import type { AppContext } from '../app/context.ts';" },
      { file: `${src}/app/c.ts`, source: "import { createExecutor } from '../exec/executor.ts';" },
      { file: `${src}/cli/d.ts`, source: "import { TOOLS } from '../tools/index.ts';" },
      { file: `${src}/exec/e.ts`, source: "import type { Runtime } from '../runtime/types.ts';" },
    ];
    assert.deepEqual(layeringProblems(folderEdges(src, files), ['kb', 'exec', 'tools', 'app', 'cli', 'runtime', 'logging', 'security']), []);
  });
});
