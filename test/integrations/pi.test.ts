// integrations/pi: ctxgate's tools inside the Pi coding agent, loaded through Pi's own extension loader
// and checked against Pi's own types and argument validator. Pi comes from scripts/fetch-test-tools.mjs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fixture, onDeno, removeDir, repoRoot } from '../helpers/env.ts';

const piDir = path.join(repoRoot, '.cache', 'clients', 'node_modules', '@mariozechner', 'pi-coding-agent');
const extension = path.join(repoRoot, 'integrations', 'pi', 'index.ts');
const skip = onDeno ? 'Pi runs on Node' : !existsSync(piDir) ? 'Pi is not in .cache/clients: run node scripts/fetch-test-tools.mjs' : undefined;

interface HostReport {
  errors: unknown[];
  tools: { name: string; label: string; snippet?: string; guidelines: string[] }[];
  locate: { text?: string; error?: string };
  read: { text?: string; error?: string };
  kbDoctor: { text?: string; error?: string };
  badCall: { text?: string; error?: string };
  valid: { ok?: unknown; refused?: string };
  invalid: { ok?: unknown; refused?: string };
}

describe('the Pi extension', { skip }, () => {
  let project: string;
  let home: string;
  let report: HostReport;

  before(() => {
    project = fixture({ 'src/orders.ts': 'export function placeOrder(id: string) {\n  return id;\n}\n' });
    home = fixture({ 'agent/': '' });
    const r = spawnSync(process.execPath, [path.join(repoRoot, 'test', 'helpers', 'pi-host.mjs'), piDir, extension, project, path.join(home, 'agent')], {
      cwd: project,
      encoding: 'utf8',
      env: { ...process.env, HOME: home, CTXGATE_DATA_DIR: path.join(home, 'data') },
    });
    assert.equal(r.status, 0, r.stderr);
    report = JSON.parse(r.stdout.trim().split('\n').pop()!) as HostReport;
  });
  after(() => {
    removeDir(project);
    removeDir(home);
  });

  it("loads through Pi's extension loader and registers the nine tools, read beside Pi's own", () => {
    assert.deepEqual(report.errors, []);
    assert.deepEqual(
      report.tools.map((t) => t.name),
      ['locate', 'ctxgate_read', 'search', 'explore', 'ctx_run', 'ctx_fs', 'ctx_git', 'ctx_kb', 'ctx_bg'],
    );
    assert.ok(report.tools.every((t) => t.label && t.snippet), 'every tool has a label and a prompt line');
    assert.ok(report.tools.some((t) => t.guidelines.some((g) => /ctx_run/.test(g))));
  });

  it('answers tool calls in-process on the project Pi works in', () => {
    assert.match(report.locate.text ?? '', /src\/orders\.ts:1/);
    assert.match(report.read.text ?? '', /export function placeOrder/);
    assert.match(report.kbDoctor.text ?? '', /FTS5: ok/);
  });

  it('turns a tool error into a failed tool call, as Pi expects', () => {
    assert.match(report.badCall.error ?? '', /INVALID_ARGUMENT: search needs a query/);
  });

  it("passes Pi's argument validation with the same schemas MCP lists", () => {
    assert.deepEqual(report.valid.ok, { action: 'ls', depth: 2 });
    assert.match(report.invalid.refused ?? '', /action/);
  });

  it("type-checks against Pi's extension types", () => {
    const r = spawnSync(process.execPath, [path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(repoRoot, 'integrations', 'pi', 'tsconfig.json')], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });
});
