import assert from 'node:assert/strict';
import { chmodSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Logger, LogFields } from '../../src/logging/logger.ts';
import { createGraph, graphBackendStatus } from '../../src/retrieval/graph-backends.ts';
import { SAMPLES } from '../code/samples.ts';
import { fixture, removeDir, runtime, withEnv } from '../helpers/env.ts';
import { type TestApp, testApp } from '../helpers/app.ts';

function recorder(): Logger & { events: { event: string; fields: LogFields }[] } {
  const events: { event: string; fields: LogFields }[] = [];
  return { events, file: undefined, log: (event, fields = {}) => events.push({ event, fields }), close() {} };
}

describe('choosing the graph backend', () => {
  let root: string;
  let emptyPath: string;
  let fakePath: string;
  let app: TestApp;
  before(async () => {
    root = fixture({ [SAMPLES.typescript.file]: SAMPLES.typescript.text });
    emptyPath = fixture();
    // Something named codebase-memory-mcp on PATH that must never be run.
    fakePath = fixture({ 'codebase-memory-mcp': '#!/bin/sh\necho ran >> "$0.ran"\nexit 3\n', codegraph: '#!/bin/sh\nexit 3\n' });
    chmodSync(path.join(fakePath, 'codebase-memory-mcp'), 0o755);
    chmodSync(path.join(fakePath, 'codegraph'), 0o755);
    app = testApp(root, { graphBackend: 'builtin' });
    await app.app.code.refresh();
  });
  after(async () => {
    await app.close();
    for (const dir of [root, emptyPath, fakePath]) removeDir(dir);
  });

  function graphWith(backend: 'codebase-memory-mcp' | 'codegraph', PATH: string) {
    const logger = recorder();
    const graph = createGraph(backend, { runtime: withEnv(runtime, { PATH }), exec: app.app.exec, logger, projectRoot: root, code: app.app.code });
    return { graph, logger };
  }

  it('answers from the built-in index, and logs why with an install hint, when codebase-memory-mcp is not installed', async () => {
    const { graph, logger } = graphWith('codebase-memory-mcp', emptyPath);
    assert.equal(graph.name, 'builtin');
    const defs = await graph.definitions('checkout');
    assert.deepEqual(defs?.map((d) => d.file), [SAMPLES.typescript.file]);
    assert.deepEqual(logger.events, [
      {
        event: 'graph_backend_unavailable',
        fields: {
          backend: 'codebase-memory-mcp',
          reason: 'codebase-memory-mcp is not on PATH',
          hint: 'install it: npm install -g codebase-memory-mcp (its install step downloads a native binary, so it needs network access beyond the npm registry)',
          answeredBy: 'builtin',
        },
      },
    ]);
    await graph.dispose();
  });

  it('never runs an installed codebase-memory-mcp it has no adapter for, and says so', async () => {
    const { graph, logger } = graphWith('codebase-memory-mcp', fakePath);
    assert.equal(graph.name, 'builtin');
    assert.ok(await graph.uses('handle'));
    assert.match(String(logger.events[0]?.fields.reason), /found at .*codebase-memory-mcp, but this version of ctxgate has no adapter for it/);
    assert.equal(runtime.fs.statSync(path.join(fakePath, 'codebase-memory-mcp.ran')), undefined);
    await graph.dispose();
  });

  it('answers from the built-in index, not an empty codegraph, when codegraph is not installed', async () => {
    const { graph, logger } = graphWith('codegraph', emptyPath);
    assert.equal(graph.name, 'builtin');
    assert.equal(logger.events[0]?.fields.hint, 'install it: npm install -g @colbymchenry/codegraph, then codegraph init in the project');
    await graph.dispose();
  });

  it('asks an installed codegraph first and tells doctor the project has no codegraph index yet', async () => {
    const { graph, logger } = graphWith('codegraph', fakePath);
    assert.equal(graph.name, 'codegraph');
    assert.deepEqual(logger.events, []);
    const status = graphBackendStatus('codegraph', withEnv(runtime, { PATH: fakePath }), root);
    assert.equal(status.answeredBy, 'codegraph');
    assert.match(status.hint ?? '', /^run codegraph init /);
    await graph.dispose();
  });

  it('uses the built-in index or nothing without looking anything up', () => {
    assert.deepEqual(graphBackendStatus('builtin', withEnv(runtime, { PATH: emptyPath }), root), { backend: 'builtin', answeredBy: 'builtin' });
    assert.equal(createGraph('none', { runtime, exec: app.app.exec, logger: recorder(), projectRoot: root, code: app.app.code }).name, 'none');
  });
});

