// A fixture project with the built-in code index built: what the suites on definitions, calls and
// locals start from (before: build it; after: close it and remove the folder).
import { fixture, removeDir } from './env.ts';
import { type TestApp, testApp } from './app.ts';

export async function indexedFixture(files: Record<string, string | Uint8Array>): Promise<{ t: TestApp; root: string }> {
  const root = fixture(files);
  const t = testApp(root, { graphBackend: 'builtin' });
  await t.app.code.refresh();
  return { t, root };
}

export async function closeFixture(t: TestApp, root: string): Promise<void> {
  await t.close();
  removeDir(root);
}
