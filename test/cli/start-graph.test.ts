// What a new stdio server loads before it can answer tools/list: every MCP client session starts one
// and waits for its tool list. The static imports from the entry and the command line must not reach
// the app builder, an engine that opens files or databases, a tool's handler, or the packages only
// calls use (they load on the first call, see src/cli/serve-stdio.ts).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from '../helpers/env.ts';

/** Static value imports and re-exports of a module (`import type` and dynamic `import()` load nothing now). */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?'([^']+)';/gm)) if (!m[1]) found.push(m[2]!);
  return found;
}

/** Every source module and package the entry modules load before any of their code runs. */
function startGraph(entries: string[]): { sources: Set<string>; packages: Set<string> } {
  const sources = new Set<string>();
  const packages = new Set<string>();
  const queue = entries.map((e) => path.join(repoRoot, e));
  while (queue.length) {
    const file = queue.pop()!;
    const rel = path.relative(repoRoot, file);
    if (sources.has(rel)) continue;
    sources.add(rel);
    for (const spec of staticImports(file)) {
      if (spec.startsWith('.')) queue.push(path.resolve(path.dirname(file), spec));
      else if (!spec.startsWith('node:')) packages.add(spec);
    }
  }
  return { sources, packages };
}

describe('the stdio start', () => {
  const { sources, packages } = startGraph(['src/main.ts', 'src/cli/command.ts', 'src/runtime/node.ts', 'src/runtime/deno.ts']);

  it('finds the modules it walks (the walk itself works)', () => {
    for (const expected of ['src/cli/serve-stdio.ts', 'src/tools/listing.ts', 'src/tools/names.ts', 'src/app/settings.ts', 'src/transports/stdio.ts']) assert.ok(sources.has(expected), expected);
    assert.ok([...packages].some((p) => p.startsWith('@modelcontextprotocol/sdk/server/')), [...packages].join(', '));
  });

  it('loads no app builder, engine room that opens files, tool handler or other command', () => {
    const heavy = [...sources].filter(
      (s) =>
        s === 'src/app/bootstrap.ts' ||
        /-handler\.ts$/.test(s) ||
        /^src\/(code|storage|textindex|kb\/(store|search|indexer|open)|workspace\/grep\/(index|grep-pool|builtin)|exec\/(executor|jobs)|vcs)\b/.test(s) ||
        /^src\/cli\/(init|doctor|stats|call)\.ts$/.test(s) ||
        /^src\/transports\/(serve|http)/.test(s) ||
        s === 'src/runtime/node-http.ts',
    );
    assert.deepEqual(heavy, []);
  });

  it("builds no tool's schema: tools/list is answered from the generated listing (src/tools/listing.ts)", () => {
    const declarations = [...sources].filter((s) => s === 'src/tools/index.ts' || s === 'src/tools/registry.ts' || /^src\/tools\/(gate|context)\//.test(s));
    assert.deepEqual(declarations, []);
  });

  it('loads no config parser: with no config file the defaults are an object, a file is parsed after an import', () => {
    // src/config/load.ts holds yaml and zod's config schema; src/app/settings.ts imports it when a file exists.
    assert.ok(sources.has('src/config/defaults.ts') && sources.has('src/config/find.ts'));
    assert.deepEqual([...sources].filter((s) => s === 'src/config/load.ts' || s === 'src/config/schema.ts'), []);
    assert.ok(!packages.has('yaml'), [...packages].join(', '));
  });

  it('loads no run_task rules (ctx_run\'s handler checks arguments and env)', () => {
    const callOnly = [...sources].filter((s) => /^src\/exec\/(tasks|task-options|task-env)\.ts$/.test(s));
    assert.deepEqual(callOnly, []);
  });

  it('loads none of the packages only calls use', () => {
    const callOnly = ['web-tree-sitter', '@sqlite.org/sqlite-wasm', 'turndown', 'hono', '@hono/node-server', 're2js', 'ipaddr.js', 'ignore', 'stemmer', 'diff', 'smol-toml', 'shell-quote', 'jsonc-parser', 'postgres'];
    const loaded = [...packages].filter((p) => callOnly.some((name) => p === name || p.startsWith(`${name}/`)) || p.startsWith('@modelcontextprotocol/sdk/client/'));
    assert.deepEqual(loaded, []);
  });
});
