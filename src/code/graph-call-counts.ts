// Calls per definition, for the overview: each call is resolved the way `explore callers` resolves it
// (graph-calls.ts: receiver types, imports, same package, class hierarchies), so a definition's count
// is the number of calls its callers answer lists. Same-named definitions are counted apart; a call
// known by its name only goes to the name's one definition, and to none when there are several.
import { callGroups } from './call-groups.ts';
import { CallResolver } from './graph-calls.ts';
import { type Definition, TEST_PATH } from './graph-definitions.ts';
import { isDocumentation } from './languages.ts';
import type { CodeStore } from './store.ts';

export interface CountedDefinition {
  definition: Definition;
  calls: number;
}

const keyOf = (d: Definition) => `${d.file}:${d.line}`;

/**
 * The most-called definitions of the project, or of one folder or file of it (`scope`, project-relative):
 * up to `names` of the most-called names defined there are weighed, each call given to the definitions
 * it resolves to.
 */
export function callCountsOf(store: CodeStore, scope: { path: string; isFile: boolean } | undefined, names = 400): CountedDefinition[] {
  const inScope = (file: string) => !scope || file === scope.path || (!scope.isFile && file.startsWith(`${scope.path}/`));
  const called = store.mostCalled(names * 2, scope && { path: scope.isFile ? scope.path : `${scope.path}/`, isFile: scope.isFile });
  const resolver = new CallResolver(store);
  const out: CountedDefinition[] = [];
  let weighed = 0;
  for (const { name } of called) {
    if (weighed >= names) break;
    const defs = resolver.definitionsOf(name).filter((d) => !isDocumentation(d.file) && d.kind !== 'impl');
    const own = new Map(defs.filter((d) => inScope(d.file) && !TEST_PATH.test(d.file)).map((d) => [keyOf(d), { definition: d, calls: 0 }]));
    if (!own.size) continue;
    weighed++;
    const methods = defs.some((d) => d.container);
    for (const s of store.callSitesOf(name)) {
      // Rows alike in qualifier, via and groups: `lines` of them, each group's count once per line.
      const groups = s.calls ? callGroups(s).map((g) => ({ ...g, n: g.n * Number(s.lines) })) : [{ qualifier: s.qualifier, via: s.via, n: Number(s.n), args: undefined }];
      for (const g of groups) {
        const found = resolver.resolve(s.path, name, g.qualifier, g.via, g.args);
        if (!found) continue;
        let reached = found.defs;
        // Known by its name only: the name's one definition (`x.f()` on an object is no call of a function f).
        if (!reached.length && found.certainty === 'name-only' && defs.length === 1 && (!g.via || methods)) reached = defs;
        for (const d of reached) {
          const counted = own.get(keyOf(d));
          if (counted) counted.calls += g.n;
        }
      }
    }
    for (const c of own.values()) if (c.calls > 0) out.push(c);
  }
  return out.sort((a, b) => b.calls - a.calls || a.definition.file.localeCompare(b.definition.file) || a.definition.line - b.definition.line);
}
