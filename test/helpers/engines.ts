// The search engines a suite runs over (kept out of env.ts: only test files register hooks).
import { after } from 'node:test';
import { fixture, removeDir, runtime } from './env.ts';

/**
 * Both search engines, for suites that must answer alike on each: ripgrep (skipped where it is not
 * installed; the scan used to re-run each pattern with JavaScript's RegExp on its hits) and the
 * built-in engine (a PATH without rg). Call at a module's top level: the empty PATH folder goes after it.
 */
export function engineSetups() {
  const noRgDir = fixture();
  after(() => removeDir(noRgDir));
  return [
    { engine: 'rg', env: {}, skip: !runtime.which('rg') && 'ripgrep is not installed' },
    { engine: 'builtin', env: { PATH: noRgDir }, skip: false },
  ] as const;
}
