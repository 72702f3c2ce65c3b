import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from '../helpers/env.ts';

// docs/architecture.md: only src/runtime/ may touch `process`, `Deno`, runtime-specific `node:` modules or
// /proc. Pure `node:` modules that behave the same everywhere are allowed (node:zlib: deflate and
// inflate of bytes in memory, the same format on both runtimes — code/table-macros.ts).
const PURE_NODE_MODULES = new Set(['node:path', 'node:util', 'node:crypto', 'node:buffer', 'node:zlib']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    return d.isDirectory() ? sourceFiles(p) : d.name.endsWith('.ts') ? [p] : [];
  });
}

function stripComments(code: string): string {
  return code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/** What in one source file breaks the rule. */
function offendersIn(rel: string, source: string): string[] {
  const code = stripComments(source);
  const found: string[] = [];
  for (const m of code.matchAll(/from\s+['"](node:[a-z_/]+)['"]|import\(\s*['"](node:[a-z_/]+)['"]/g)) {
    const mod = m[1] ?? m[2]!;
    const typeOnly = /^import\s+type\b/.test(code.slice(code.lastIndexOf('\n', m.index) + 1, m.index));
    if (!PURE_NODE_MODULES.has(mod) && !typeOnly) found.push(`${rel}: imports ${mod}`);
  }
  if (/\bprocess\s*\.\s*[a-zA-Z]/.test(code)) found.push(`${rel}: uses process`);
  if (/\bDeno\s*\./.test(code)) found.push(`${rel}: uses Deno`);
  if (/['"`]\/proc\//.test(code)) found.push(`${rel}: reads /proc`);
  return found;
}

describe('runtime boundary', () => {
  it('keeps process, Deno, runtime-specific node: modules and /proc inside src/runtime/', () => {
    const src = path.join(repoRoot, 'src');
    const offenders = sourceFiles(src)
      .map((file) => path.relative(src, file))
      .filter((rel) => !rel.startsWith(`runtime${path.sep}`))
      .flatMap((rel) => offendersIn(rel, readFileSync(path.join(src, rel), 'utf8')));
    assert.deepEqual(offenders, []);
  });

  it('catches each kind of offence and lets pure modules and type imports pass', () => {
    const bad = "import * as fs from 'node:fs';\nconst h = process.env.HOME;\nDeno.exit(1);\nread('/proc/self/stat');\nawait import('node:child_process');";
    assert.deepEqual(offendersIn('x.ts', bad), ['x.ts: imports node:fs', 'x.ts: imports node:child_process', 'x.ts: uses process', 'x.ts: uses Deno', 'x.ts: reads /proc']);
    const fine = "import * as path from 'node:path';\nimport type { Readable } from 'node:stream';\n// process.exit() in a comment\n";
    assert.deepEqual(offendersIn('y.ts', fine), []);
  });
});
