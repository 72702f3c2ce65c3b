// An app in this process for the tests that call tools: the whole server minus its transports
// (kept apart from env.ts, which every test loads: bringing in the app and its nine tools costs a
// test process ~0.9 s of CPU).
import type { Runtime } from '../../src/runtime/types.ts';
import { type CommonOptions, createAppContext } from '../../src/app/bootstrap.ts';
import type { AppContext } from '../../src/app/context.ts';
import { type ClientSession, createClientSession } from '../../src/app/context.ts';
import { TOOLS } from '../../src/tools/index.ts';
import { type CallResult, createToolRegistry } from '../../src/tools/registry.ts';
import { fixture, removeDir, runtime, withEnv } from './env.ts';

export interface TestApp {
  app: AppContext;
  dataDir: string;
  /** Calls a tool in the app's one client session, or in the session given. */
  call(tool: string, args: unknown, session?: ClientSession): Promise<CallResult>;
  close(): Promise<void>;
}

/** An in-process app on `root` with its data dir in a temp folder; `base` replaces the runtime under test. */
export function testApp(root: string, options: Partial<CommonOptions> = {}, env: Record<string, string | undefined> = {}, base: Runtime = runtime): TestApp {
  const dataDir = fixture();
  const app = createAppContext(withEnv(base, { CTXGATE_DATA_DIR: dataDir, CTXGATE_CONFIG: undefined, CTXMODE_CONFIG: undefined, ...env }), {
    projectRoot: root,
    debug: false,
    ...options,
  });
  const registry = createToolRegistry(TOOLS);
  const session = createClientSession('test');
  return {
    app,
    dataDir,
    call: (tool, args, inSession = session) => registry.call(tool, args, { app, session: inSession, signal: new AbortController().signal, progress: async () => undefined }),
    async close() {
      await app.lifecycle.shutdown('test done');
      removeDir(dataDir);
    },
  };
}

export function textOf(result: CallResult): string {
  return result.content.map((c) => c.text).join('\n');
}
