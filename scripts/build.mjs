// Bundles src/main.ts into one ESM file for Node (dist/ctxgate.mjs): one file loads far faster than
// hundreds of modules. Deno runs src/main.ts directly and does not need this.
import { chmodSync } from 'node:fs';
import { build } from 'esbuild';

await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/ctxgate.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  sourcemap: 'linked',
  legalComments: 'linked',
  // sqlite-wasm finds its .wasm through import.meta.url: it must stay a real package, not bundled.
  external: ['@sqlite.org/sqlite-wasm'],
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __ctxgateRequire } from 'node:module'; const require = __ctxgateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
chmodSync('dist/ctxgate.mjs', 0o755);
