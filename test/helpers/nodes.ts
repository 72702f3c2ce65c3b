// The Node versions a test can run the package on: this process's Node (under the Node test runner), the
// Node that started the test runner (CTXGATE_RUNNER_NODE: the machine's own, which may be one this package
// does not support, and the Node half may run on another), and the supported majors that
// scripts/fetch-test-tools.mjs put into .cache/nodes/.
import { existsSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { onDeno, repoRoot } from './env.ts';

export interface TestNode {
  /** The node executable. */
  bin: string;
  /** Its version without the v, e.g. 22.23.5. */
  version: string;
  major: number;
}

function describeNode(bin: string): TestNode | undefined {
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  const version = r.stdout?.trim().replace(/^v/, '');
  if (r.status !== 0 || !version) return undefined;
  return { bin, version, major: Number(version.split('.')[0]) };
}

/** Every distinct Node found, oldest first. */
export function testNodes(): TestNode[] {
  const bins: string[] = onDeno ? [] : [process.execPath];
  const runner = process.env.CTXGATE_RUNNER_NODE;
  if (runner && !onDeno && existsSync(runner)) bins.push(runner);
  const cache = path.join(repoRoot, '.cache', 'nodes');
  if (existsSync(cache)) {
    for (const major of readdirSync(cache)) {
      const modules = path.join(cache, major, 'node_modules');
      if (!existsSync(modules)) continue;
      for (const pkg of readdirSync(modules).filter((n) => n.startsWith('node-'))) bins.push(path.join(modules, pkg, 'bin', 'node'));
    }
  }
  const found = bins.map(describeNode).filter((n): n is TestNode => n !== undefined);
  const unique = new Map(found.map((n) => [n.version, n]));
  return [...unique.values()].sort((a, b) => a.major - b.major);
}

/** A Node of at least this major version, if one is here. */
export function nodeAtLeast(major: number): TestNode | undefined {
  return testNodes().find((n) => n.major >= major);
}

/** Supported by the package's engines field (Node 22.7+ and 24). */
export function supported(node: TestNode): boolean {
  const [major = 0, minor = 0] = node.version.split('.').map(Number);
  return (major === 22 && minor >= 7) || major === 24;
}
