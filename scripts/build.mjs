// Bundles src/main.ts for Node: dist/ctxgate.mjs and a few chunks in dist/chunks/ (a handful of files
// load far faster than hundreds of modules, and the published package needs no dependencies at all).
// Split at main.ts's dynamic imports, so `ctxgate hook …`, which Claude Code runs on every tool call,
// loads ~20 KB instead of the whole server. Deno runs src/main.ts directly and does not need this.
//
// dist/ holds what the package ships (package.json "files"): the bundle and its chunks, the WASM files
// they load beside themselves, and the licences of everything bundled. Source maps stay in the clone.
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const OUT = 'dist';
// sqlite-wasm finds its .wasm with new URL('sqlite3.wasm', import.meta.url): bundled, import.meta.url is
// the chunk's own, so the file goes beside the chunks.
// web-tree-sitter does the same with web-tree-sitter.wasm.
const WASM = [
  ['node_modules/@sqlite.org/sqlite-wasm/dist/sqlite3.wasm', 'chunks/sqlite3.wasm'],
  ['node_modules/web-tree-sitter/web-tree-sitter.wasm', 'chunks/web-tree-sitter.wasm'],
];
// The grammars the code index parses with (src/code/languages.ts), read by path at run time from
// dist/grammars/ (in a clone and on Deno, from their packages in node_modules).
const GRAMMAR_PACKAGES = { '@vscode/tree-sitter-wasm': 'wasm', '@repomix/tree-sitter-wasms': 'out' };
const GRAMMARS = [
  ['@vscode/tree-sitter-wasm', ['typescript', 'tsx', 'javascript', 'python', 'go', 'rust', 'java', 'c-sharp', 'cpp', 'ruby', 'php']],
  ['@repomix/tree-sitter-wasms', ['c']],
];

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const result = await build({
  // embed.mjs: the tools in-process for hosts such as the Pi coding agent (integrations/pi/).
  // parse-worker.mjs: the code index's parse worker, found beside the bundle (src/code/parse-pool.ts).
  // grep-worker.mjs: the built-in search engine's worker, found the same way (src/workspace/grep/grep-pool.ts).
  entryPoints: { ctxgate: 'src/main.ts', embed: 'src/transports/embed.ts', 'parse-worker': 'src/code/parse-worker.ts', 'grep-worker': 'src/workspace/grep/grep-worker.ts' },
  outdir: OUT,
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  minify: true,
  sourcemap: 'linked',
  legalComments: 'none',
  metafile: true,
  // jsonc-parser's "main" is a UMD build whose require() calls esbuild cannot follow: take its ESM build.
  alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __ctxgateRequire } from 'node:module'; const require = __ctxgateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
chmodSync(`${OUT}/ctxgate.mjs`, 0o755);
for (const [from, to] of WASM) copyFileSync(from, path.join(OUT, to));
mkdirSync(path.join(OUT, 'grammars'), { recursive: true });
for (const [pkg, names] of GRAMMARS) {
  for (const name of names) copyFileSync(path.join('node_modules', pkg, GRAMMAR_PACKAGES[pkg], `tree-sitter-${name}.wasm`), path.join(OUT, 'grammars', `tree-sitter-${name}.wasm`));
}
writeFileSync(path.join(OUT, 'THIRD_PARTY_LICENSES.txt'), thirdPartyLicenses(result.metafile, Object.keys(GRAMMAR_PACKAGES)));

/** The licence text of every package the bundle contains (MIT and friends ask for it to travel along). */
function thirdPartyLicenses(metafile, shipped = []) {
  const packages = new Map(shipped.map((name) => [name, `node_modules/${name}/`]));
  for (const input of Object.keys(metafile.inputs)) {
    const m = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m && !packages.has(m[1])) packages.set(m[1], input.slice(0, m.index + m[0].length));
  }
  const sections = [...packages.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, dir]) => {
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const file = readdirSync(dir).find((f) => /^(licen[sc]e|copying)(\.|$)/i.test(f));
    const text = file ? readFileSync(path.join(dir, file), 'utf8').trim() : `(no licence file; package.json says ${pkg.license ?? 'nothing'})`;
    return `${name}@${pkg.version} — ${pkg.license ?? 'see below'}\n\n${text}`;
  });
  const rule = `\n\n${'-'.repeat(78)}\n\n`;
  return `dist/ctxgate.mjs bundles the following packages (and dist/grammars/ holds files of the tree-sitter grammar packages).${rule}${sections.join(rule)}\n`;
}
