// Loaded with `--import` by the test runner into each Node test process: a module's types, once
// stripped, are kept in .cache/ts-strip/ (named by a hash of the source and the Node version) for
// every later process.
// Node strips a .ts module itself on a Node 22.18+, but each process first sets up its stripper
// (SWC compiled to WebAssembly: ~0.13 s of CPU before the first module) and strips every module it
// loads again — a test process loads ~200 of this repository's. With the cache a process that meets
// no new source never sets the stripper up. Stripping keeps every line and column where it was
// (types become spaces), so stack traces point into the .ts files as before.
// Without module.registerHooks (Node before 22.15) this does nothing and Node strips as usual.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import nodeModule from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { threadId } from 'node:worker_threads';

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
  try {
    mkdirSync(dir, { recursive: true });
  } catch {
    // written next to nothing then: every write below fails quietly
  }
  registerHooks({
    load(url, context, nextLoad) {
      // This repository's own modules only: a .ts under node_modules is Node's to refuse, as without the cache.
      if (!url.startsWith('file:') || !url.endsWith('.ts') || url.includes('/node_modules/')) return nextLoad(url, context);
      const source = readFileSync(fileURLToPath(url), 'utf8');
      // Named by the Node too: another Node's stripper (CTXGATE_TEST_NODE) may strip differently or refuse.
      const cached = path.join(dir, `${createHash('sha256').update(`${process.version}\0${source}`).digest('hex').slice(0, 40)}.js`);
      let code;
      try {
        code = readFileSync(cached, 'utf8');
      } catch {
        code = stripQuietly(source);
        // Written whole under a name of this thread's own, then renamed: a reader sees all or nothing.
        // A cache that cannot be written is only slower.
        const tmp = `${cached}.${process.pid}.${threadId}.tmp`;
        try {
          writeFileSync(tmp, code);
          renameSync(tmp, cached);
        } catch {
          rmSync(tmp, { force: true });
        }
      }
      return { format: 'module', source: code, shortCircuit: true };
    },
  });
}
