// integrations/pi with a stand-in for Pi's extension API (the real Pi runs in pi.test.ts when it is
// installed): what the extension does when ctxgate cannot open the project.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fixture, removeDir, repoRoot } from '../helpers/env.ts';

// By path, so that the type check of the tests does not need Pi's types (integrations/pi has its own tsconfig).
const extension = path.join(repoRoot, 'integrations', 'pi', 'index.ts');

interface FakeTool {
  name: string;
  execute(id: string, params: unknown, signal: AbortSignal | undefined, onUpdate: undefined, ctx: { cwd: string }): Promise<{ content: { text: string }[] }>;
}

describe('the Pi extension, hosted by a stand-in', () => {
  let project: string;
  let dataDir: string;
  const saved = process.env.CTXGATE_DATA_DIR;
  const tools = new Map<string, FakeTool>();
  const handlers = new Map<string, () => Promise<void>>();

  before(async () => {
    project = fixture({ 'ctxgate.config.json': '{ "tools": ', 'src/alpha.ts': 'export function alphaWidget() {\n  return 1;\n}\n' });
    dataDir = fixture();
    process.env.CTXGATE_DATA_DIR = dataDir;
    const pi = { registerTool: (tool: FakeTool) => tools.set(tool.name, tool), on: (event: string, handler: () => Promise<void>) => handlers.set(event, handler) };
    const { default: ctxgate } = (await import(extension)) as { default: (api: unknown) => Promise<void> };
    await ctxgate(pi);
  });
  after(async () => {
    await handlers.get('session_shutdown')?.();
    if (saved === undefined) delete process.env.CTXGATE_DATA_DIR;
    else process.env.CTXGATE_DATA_DIR = saved;
    removeDir(project);
    removeDir(dataDir);
  });

  it('opens the project again on the next call once a config mistake that stopped it is fixed', async () => {
    const locate = tools.get('locate')!;
    const ctx = { cwd: project };
    await assert.rejects(locate.execute('1', { query: 'alphaWidget' }, undefined, undefined, ctx), /ctxgate\.config\.json/);
    writeFileSync(path.join(project, 'ctxgate.config.json'), '{}\n');
    const answer = await locate.execute('2', { query: 'alphaWidget' }, undefined, undefined, ctx);
    assert.match(answer.content[0]!.text, /src\/alpha\.ts:1/);
  });
});
