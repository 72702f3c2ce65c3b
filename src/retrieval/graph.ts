// Graph backends answer what a file scan cannot: definitions with their true ranges, the definition
// around a line, callers with their enclosing functions, callees, imports, impact, an overview, and
// definition blocks for questions in words. `builtin` is ctxgate's own code index (src/code/);
// `codegraph` and `codebase-memory-mcp` are external programs. Every method answers `undefined` when
// the backend cannot answer (not built yet, missing, crashed, too slow): callers then scan. An
// external backend is always wrapped with the built-in one as its fallback, with a logged event.
import type { BlockAnswer, Callee, Definition, Definitions, Dependencies, ImpactEntry, Overview, Use, Uses } from '../code/graph.ts';
import * as code from '../code/graph.ts';
import type { CodeIndex } from '../code/index.ts';
import type { GraphBackend } from '../config/schema.ts';
import { messageOf } from '../errors.ts';
import type { Logger } from '../logging/logger.ts';

export type { BlockAnswer, Callee, Definition, Definitions, Dependencies, ImpactEntry, Overview, Use, Uses };

export interface GraphAdapter {
  readonly name: GraphBackend;
  /**
   * Definitions strongest first; with `locals`, declarations that are no definition of their own
   * (locals, parameters, fields, enum members) after them all. `partial`: found in part of the files
   * naming the symbol (before the built-in index's first build is done), more may exist.
   */
  definitions(symbol: string, owner?: string, options?: { locals?: boolean }): Promise<Definitions | undefined>;
  definitionAt(file: string, line: number): Promise<Definition | null | undefined>;
  outline(file: string): Promise<Definition[] | undefined>;
  /**
   * Every use of the name; with `within`, only the uses in those files (the rest need not be looked
   * at). `kindsOnly`: what each line does with the name is all that is wanted — every use row, none
   * resolved to a definition (certainty 'name-only', no definitions): a backend may answer faster.
   */
  uses(symbol: string, owner?: string, within?: ReadonlySet<string>, options?: { kindsOnly?: boolean }): Promise<Uses | undefined>;
  callees(definition: Definition): Promise<Callee[] | undefined>;
  dependencies(file: string): Promise<Dependencies | undefined>;
  impact(symbol: string, owner: string | undefined, depth: number): Promise<{ callers: ImpactEntry[]; dependents: string[] } | undefined>;
  /** The project at a glance; with `scope` (a project-relative folder or file), that part only. */
  overview(scope?: string): Promise<Overview | undefined>;
  searchBlocks(question: string, inScope: (file: string) => boolean, limit: number): Promise<BlockAnswer | undefined>;
  dispose(): Promise<void>;
}

/** A backend that never answers: every question goes to the file scan. */
export function createNullAdapter(name: GraphBackend = 'none'): GraphAdapter {
  const none = async () => undefined;
  return {
    name,
    definitions: none,
    definitionAt: none,
    outline: none,
    uses: none,
    callees: none,
    dependencies: none,
    impact: none,
    overview: none,
    searchBlocks: none,
    dispose: async () => undefined,
  };
}

/** ctxgate's own index: tree-sitter definitions, references and imports in the project's data folder. */
export function createBuiltinAdapter(index: CodeIndex): GraphAdapter {
  return {
    name: 'builtin',
    definitions: (symbol, owner, options) => code.findDefinitions(index, symbol, owner, options),
    definitionAt: (file, line) => code.definitionAt(index, file, line),
    outline: (file) => code.outlineOf(index, file),
    uses: (symbol, owner, within, options) => code.usesOf(index, symbol, owner, within, options),
    callees: (definition) => code.calleesOf(index, definition),
    dependencies: (file) => code.dependenciesOf(index, file),
    impact: (symbol, owner, depth) => code.impactOf(index, symbol, owner, depth),
    overview: (scope) => code.overviewOf(index, scope),
    searchBlocks: (question, inScope, limit) => code.searchBlocks(index, question, inScope, limit),
    dispose: async () => undefined,
  };
}

type Method = Exclude<keyof GraphAdapter, 'name' | 'dispose'>;

/**
 * Asks `primary` first; when it has no answer, throws or takes longer than `timeoutMs`, asks
 * `fallback` and logs why. A backend that failed is not asked again for `cooldownMs`.
 */
export function withFallback(primary: GraphAdapter, fallback: GraphAdapter, logger: Logger, options: { timeoutMs?: number; cooldownMs?: number } = {}): GraphAdapter {
  const timeoutMs = options.timeoutMs ?? 5000;
  const cooldownMs = options.cooldownMs ?? 60_000;
  let downUntil = 0;
  function wrap<M extends Method>(method: M): GraphAdapter[M] {
    const call = async (...args: unknown[]) => {
      const viaFallback = () => (fallback[method] as (...a: unknown[]) => Promise<unknown>)(...args);
      if (Date.now() < downUntil) return viaFallback();
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        const answer = await Promise.race([
          (primary[method] as (...a: unknown[]) => Promise<unknown>)(...args),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
          }),
        ]);
        if (answer !== undefined) return answer;
        logger.log('graph_fallback', { backend: primary.name, method, reason: 'no answer' });
      } catch (error) {
        downUntil = Date.now() + cooldownMs;
        logger.log('graph_fallback', { backend: primary.name, method, reason: messageOf(error) });
      } finally {
        clearTimeout(timer);
      }
      return viaFallback();
    };
    return call as unknown as GraphAdapter[M];
  }
  return {
    name: primary.name,
    definitions: wrap('definitions'),
    definitionAt: wrap('definitionAt'),
    outline: wrap('outline'),
    uses: wrap('uses'),
    callees: wrap('callees'),
    dependencies: wrap('dependencies'),
    impact: wrap('impact'),
    overview: wrap('overview'),
    searchBlocks: wrap('searchBlocks'),
    async dispose() {
      await Promise.allSettled([primary.dispose(), fallback.dispose()]);
    },
  };
}
