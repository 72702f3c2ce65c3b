// A clone as a Deno-only user has it after `deno install --prod`: the sources and configs, and a
// node_modules holding only the packages deno.json's import map names and what they depend on (no dev
// tools, no `deno` npm package, no bin links). Its packages are links to this checkout's, so no network
// is needed; a package the server loads but the import map leaves out is missing here, as for the user.
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fixture, repoRoot } from './env.ts';

/** The npm package names deno.json's import map points at (`npm:name@version` or `npm:/name@version/`). */
export function denoImportPackages(): Map<string, string> {
  const imports = (JSON.parse(readFileSync(path.join(repoRoot, 'deno.json'), 'utf8')) as { imports?: Record<string, string> }).imports ?? {};
  const packages = new Map<string, string>();
  for (const target of Object.values(imports)) {
    const m = /^npm:\/?((?:@[^/@]+\/)?[^/@]+)@([^/]+)\/?$/.exec(target);
    if (m) packages.set(m[1]!, m[2]!);
  }
  return packages;
}

/** The packages and everything they depend on, as npm laid them out in this checkout's node_modules. */
function closure(roots: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    const manifest = path.join(repoRoot, 'node_modules', name, 'package.json');
    if (!existsSync(manifest)) continue; // an optional dependency npm skipped on this platform
    seen.add(name);
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { dependencies?: Record<string, string> };
    queue.push(...Object.keys(pkg.dependencies ?? {}));
  }
  return seen;
}

export function denoOnlyClone(): string {
  const dir = fixture();
  for (const name of ['src', 'deno.json', 'package.json']) cpSync(path.join(repoRoot, name), path.join(dir, name), { recursive: true });
  const modules = path.join(dir, 'node_modules');
  for (const name of closure(denoImportPackages().keys())) {
    mkdirSync(path.dirname(path.join(modules, name)), { recursive: true });
    symlinkSync(path.join(repoRoot, 'node_modules', name), path.join(modules, name));
  }
  return dir;
}
