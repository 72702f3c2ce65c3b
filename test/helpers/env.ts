// Test plumbing: the runtime under test, temp fixture folders (an in-process app: app.ts).
import { mkdtempSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findDenoBinary, NO_DENO } from '../../scripts/lib/deno-binary.mjs';
import { which } from '../../src/runtime/common.ts';
import { loadRuntime } from '../../src/runtime/index.ts';
import type { Runtime } from '../../src/runtime/types.ts';

export const runtime: Runtime = await loadRuntime();
export const onDeno = runtime.name === 'deno';
/**
 * The deno executable itself (never an npm launcher, which would stand between a test's signal and
 * deno): the one running the tests, else the one scripts/lib/deno-binary.mjs finds.
 */
export function denoExecutable(): string {
  if (onDeno) return (globalThis as unknown as { Deno: { execPath(): string } }).Deno.execPath();
  const deno = findDenoBinary();
  if (!deno) throw new Error(NO_DENO);
  return deno;
}

export const repoRoot = path.resolve(import.meta.dirname ?? path.dirname(new URL(import.meta.url).pathname), '..', '..');

/** A runtime whose environment is the real one with some variables replaced (undefined removes). */
export function withEnv(base: Runtime, overrides: Record<string, string | undefined>): Runtime {
  const merged = () => {
    const env = base.env.toObject();
    for (const [k, v] of Object.entries(overrides)) {
      if (v === undefined) delete env[k];
      else env[k] = v;
    }
    return env;
  };
  return { ...base, env: { get: (name) => merged()[name], toObject: merged }, which: (command) => which(command, merged().PATH) };
}

/** A fresh temp folder (real path) holding the given files; directories end with '/'. */
export function fixture(files: Record<string, string | Uint8Array> = {}): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'ctxgate-test-')));
  writeFiles(dir, files);
  return dir;
}

export function writeFiles(dir: string, files: Record<string, string | Uint8Array>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(dir, rel);
    if (rel.endsWith('/')) {
      mkdirSync(abs, { recursive: true });
      continue;
    }
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
}

/** The runtime with its temp folders (ctx_run's program sources) made under `root` instead. */
export function withTempRoot(base: Runtime, root: string): Runtime {
  return { ...base, fs: { ...base.fs, makeTempDirSync: (prefix) => mkdtempSync(path.join(root, prefix)) } };
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
