// Where a worker's module is: beside the module that starts it in a clone or on Deno (`<stem>.ts`),
// beside the bundle in the package (`dist/<stem>.mjs`, one folder up from the chunk the starting
// code sits in, or in the same folder).
import type { RuntimeFs } from '../runtime/types.ts';

/** The worker entry `stem` relative to `base` (the starting module's `import.meta.url`), if installed. */
export function workerEntry(fs: Pick<RuntimeFs, 'statSync'>, base: string, stem: string): URL | undefined {
  for (const rel of [`./${stem}.ts`, `../${stem}.mjs`, `./${stem}.mjs`]) {
    const url = new URL(rel, base);
    if (url.protocol === 'file:' && fs.statSync(decodeURIComponent(url.pathname))?.isFile) return url;
  }
  return undefined;
}
