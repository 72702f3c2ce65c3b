// Loaded with `--import` by the test runner into each Node test process: a module's types, once
// stripped, are kept in .cache/ts-strip/ (named by a hash of the source) for every later process.
// Node strips a .ts module itself on a Node 22.18+, but each process first sets up its stripper
// (SWC compiled to WebAssembly: ~0.13 s of CPU before the first module) and strips every module it
// loads again — a test process loads ~200 of this repository's. With the cache a process that meets
// no new source never sets the stripper up. Stripping keeps every line and column where it was
// (types become spaces), so stack traces point into the .ts files as before.
// Without module.registerHooks (Node before 22.15) this does nothing and Node strips as usual.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import nodeModule from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const { registerHooks, stripTypeScriptTypes } = nodeModule;
const dir = path.resolve(import.meta.dirname, '..', '..', '.cache', 'ts-strip');

/** Strips without Node's one-time "experimental feature" warning, which the test's own output would carry. */
function stripQuietly(source) {
  const emitWarning = process.emitWarning;
  process.emitWarning = () => undefined;
  try {
    return stripTypeScriptTypes(source, { mode: 'strip' });
  } finally {
    process.emitWarning = emitWarning;
  }
}

if (registerHooks && stripTypeScriptTypes) {
  mkdirSync(dir, { recursive: true });
  registerHooks({
    load(url, context, nextLoad) {
      // This repository's own modules only: a .ts under node_modules is Node's to refuse, as without the cache.
      if (!url.startsWith('file:') || !url.endsWith('.ts') || url.includes('/node_modules/')) return nextLoad(url, context);
      const source = readFileSync(fileURLToPath(url), 'utf8');
      const cached = path.join(dir, `${createHash('sha256').update(source).digest('hex').slice(0, 40)}.js`);
      let code;
      try {
        code = readFileSync(cached, 'utf8');
      } catch {
        code = stripQuietly(source);
        // Written whole under another name, then renamed: a process reading it meanwhile sees all or nothing.
        const tmp = `${cached}.${process.pid}.tmp`;
        writeFileSync(tmp, code);
        renameSync(tmp, cached);
      }
      return { format: 'module', source: code, shortCircuit: true };
    },
  });
}
