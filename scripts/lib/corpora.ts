// Code nobody here wrote, for the benchmarks: prepared on first use, reused after.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The `effect` package's TypeScript sources (npm install effect@3 into /tmp/bench-effect). */
export function effectSources(): string {
  const dir = '/tmp/bench-effect/node_modules/effect/src';
  if (!existsSync(dir)) {
    mkdirSync('/tmp/bench-effect', { recursive: true });
    execFileSync('npm', ['install', '--prefix', '/tmp/bench-effect', '--no-save', '--no-audit', '--no-fund', 'effect@3'], { stdio: 'inherit' });
  }
  return dir;
}

/** The Linux 6.1 tree (Debian's linux-source-6.1, unpacked into /tmp/linux-full). */
export function linuxTree(): string {
  const dir = '/tmp/linux-full/linux-source-6.1';
  if (!existsSync(dir)) {
    mkdirSync('/tmp/linux-full', { recursive: true });
    execFileSync('tar', ['-xJf', '/usr/src/linux-source-6.1.tar.xz', '-C', '/tmp/linux-full'], { stdio: 'inherit' });
  }
  // Debian's source package appends "/*" and "!/debian/" to the kernel's .gitignore, which
  // ignores the whole tree; restore the kernel's own rules.
  const gitignore = path.join(dir, '.gitignore');
  const text = readFileSync(gitignore, 'utf8');
  if (/^\/\*$/m.test(text)) writeFileSync(gitignore, text.replace(/^\/\*\n!\/debian\/\n?/m, ''));
  return dir;
}

/** `java.base`'s `java/util/*.java` of the JDK's src.zip, copied into `dir` (subpackages left out). */
export function javaUtilSources(dir: string): string {
  if (!existsSync(dir)) {
    // unzip's * crosses folders: the subpackages come along and are dropped here.
    const part = `${dir}.part`;
    rmSync(part, { recursive: true, force: true });
    execFileSync('unzip', ['-q', '/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip', 'java.base/java/util/*.java', '-d', part]);
    const util = path.join(part, 'java.base/java/util');
    for (const e of readdirSync(util, { withFileTypes: true })) if (e.isDirectory()) rmSync(path.join(util, e.name), { recursive: true });
    renameSync(part, dir);
  }
  return dir;
}
