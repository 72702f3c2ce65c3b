// A clone as a Deno-only user has it after `deno install`: the sources and configs, and a node_modules
// holding the packages but no `deno` npm package and no bin links (a launcher there would stand between
// `deno task` and the server). Its packages are links to this checkout's, so no network is needed.
import { cpSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fixture, repoRoot } from './env.ts';

export function denoOnlyClone(): string {
  const dir = fixture();
  for (const name of ['src', 'deno.json', 'package.json']) cpSync(path.join(repoRoot, name), path.join(dir, name), { recursive: true });
  const modules = path.join(dir, 'node_modules');
  mkdirSync(modules);
  for (const name of readdirSync(path.join(repoRoot, 'node_modules'))) {
    if (name === 'deno' || name === '@deno' || name.startsWith('.')) continue;
    symlinkSync(path.join(repoRoot, 'node_modules', name), path.join(modules, name));
  }
  return dir;
}
