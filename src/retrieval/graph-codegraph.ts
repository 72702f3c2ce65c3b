// The codegraph backend (npm @colbymchenry/codegraph), driven through its CLI's JSON output:
// `query` for definitions, `callers` and `callees` for the call graph. It answers only for a project
// the user indexed with `codegraph init` (which writes .codegraph/ into the repository — ctxgate never
// does that on its own); everything it cannot answer goes to the fallback the caller wraps it with.
import * as path from 'node:path';
import { childEnv } from '../exec/env.ts';
import type { Executor } from '../exec/executor.ts';
import type { Logger } from '../logging/logger.ts';
import type { Runtime } from '../runtime/types.ts';
import type { Definition, GraphAdapter, Use } from './graph.ts';

export interface CodegraphDeps {
  runtime: Runtime;
  exec: Executor;
  logger: Logger;
  projectRoot: string;
  /** The codegraph executable. */
  bin: string;
  timeoutMs?: number;
}

interface CgNode {
  name: string;
  kind: string;
  qualifiedName?: string;
  filePath: string;
  startLine: number;
  endLine?: number;
  signature?: string | null;
  isExported?: boolean;
}

const KINDS: Record<string, string> = { constant: 'const', variable: 'variable', function: 'function', method: 'method', class: 'class', interface: 'interface', type_alias: 'type', enum: 'enum', struct: 'struct', trait: 'trait', module: 'module' };

function toDefinition(n: CgNode): Definition {
  const container = n.qualifiedName?.includes('::') ? n.qualifiedName.split('::').slice(-2, -1)[0] : undefined;
  return {
    id: 0,
    file: n.filePath,
    name: n.name,
    kind: KINDS[n.kind] ?? n.kind,
    container,
    signature: `${n.name}${n.signature ?? ''}`,
    start: n.startLine,
    line: n.startLine,
    end: n.endLine ?? n.startLine,
    exported: n.isExported ?? false,
    topLevel: !container,
    bodiless: false,
    overloads: [],
  };
}

/** Whether the project has codegraph's index (`codegraph init` writes it into the project). */
export function codegraphIndexed(runtime: Runtime, projectRoot: string): boolean {
  return runtime.fs.statSync(path.join(projectRoot, '.codegraph'))?.isDirectory === true;
}

export function createCodegraphAdapter(deps: CodegraphDeps): GraphAdapter {
  const { bin } = deps;
  const indexed = () => codegraphIndexed(deps.runtime, deps.projectRoot);
  let warned = false;

  async function json(args: string[]): Promise<unknown> {
    if (!indexed()) {
      if (!warned) deps.logger.log('graph_backend_unavailable', { backend: 'codegraph', reason: `no .codegraph/ in ${deps.projectRoot}: run codegraph init there` });
      warned = true;
      return undefined;
    }
    const r = await deps.exec.run({
      command: bin,
      args: [...args, '-p', deps.projectRoot, '-j'],
      cwd: deps.projectRoot,
      env: childEnv(deps.runtime, { CODEGRAPH_TELEMETRY: '0', NO_COLOR: '1' }),
      timeoutMs: deps.timeoutMs ?? 10_000,
      maxOutputBytes: 16 * 1024 * 1024,
    });
    if (r.exitCode !== 0) throw new Error(`codegraph ${args[0]} exited ${r.exitCode ?? r.signal}: ${r.stderr.slice(0, 200)}`);
    return JSON.parse(r.stdout);
  }

  async function definitions(symbol: string, owner?: string): Promise<Definition[] | undefined> {
    const rows = (await json(['query', symbol, '-l', '100'])) as { node: CgNode }[] | undefined;
    if (!rows) return undefined;
    const defs = rows.map((r) => r.node).filter((n) => n.name === symbol).map(toDefinition);
    if (!owner) return defs;
    return defs.filter((d) => d.container === owner || path.basename(d.file).replace(/\..*$/, '') === owner);
  }

  return {
    name: 'codegraph',
    definitions,
    definitionAt: async () => undefined,
    outline: async () => undefined,
    async uses(symbol, owner) {
      const r = (await json(['callers', symbol, '-l', '500'])) as { definitions?: { definition: CgNode; callers: CgNode[] }[] } | undefined;
      if (!r?.definitions) return undefined;
      const defs = ((await definitions(symbol, owner)) ?? []).filter((d) => d.kind !== 'impl');
      const uses: Use[] = [];
      for (const d of r.definitions) {
        if (owner && !defs.some((x) => x.file === d.definition.filePath && x.line === d.definition.startLine)) continue;
        for (const c of d.callers) {
          // codegraph names the calling definition, not the line of the call: its first line stands in.
          uses.push({ file: c.filePath, line: c.startLine, kind: 'call', caller: { name: c.name, container: undefined, line: c.startLine }, qualifier: undefined, certainty: 'qualified' });
        }
      }
      // codegraph records only calls it resolved to a definition: none found is no answer.
      return uses.length ? { definitions: defs, uses, byNameElsewhere: 0, elsewhere: 0 } : undefined;
    },
    async callees(definition) {
      const r = (await json(['callees', definition.name, '-f', definition.file, '-l', '200'])) as { definitions?: { callees: CgNode[] }[] } | undefined;
      if (!r?.definitions) return undefined;
      const counts = new Map<string, { file: string; line: number }[]>();
      for (const d of r.definitions) for (const c of d.callees) counts.set(c.name, [...(counts.get(c.name) ?? []), { file: c.filePath, line: c.startLine }]);
      if (!counts.size) return undefined;
      return [...counts.entries()].map(([name, at]) => ({ name, qualifier: undefined, count: 1, definedAt: at.slice(0, 3).map((a) => ({ ...a, certainty: 'qualified' as const })) }));
    },
    dependencies: async () => undefined,
    impact: async () => undefined,
    overview: async () => undefined,
    searchBlocks: async () => undefined,
    dispose: async () => undefined,
  };
}
