// Calls per definition, for the overview: same-named definitions are counted apart. Each call of a
// name goes to the one definition it reaches most surely. A plain call: its own file, then a file
// (or Go package folder) the calling file imports, then a member of its own file. One on this/self:
// its own file, then an imported one. A qualified call (`core.map`,
// `Option.map`): a definition whose owner or file the qualifier names, one the file imports first; a
// qualifier naming none of them is a variable of unknown type. A name with one definition gets every
// call of it. A call that fits several definitions equally well is given to none rather than to all.
import { type Definition, foldOverloads, stemOf, TEST_PATH, toDefinition } from './graph-definitions.ts';
import { isDocumentation } from './languages.ts';
import type { CodeStore } from './store.ts';

export interface CountedDefinition {
  definition: Definition;
  calls: number;
}

const dirOf = (file: string) => file.slice(0, file.lastIndexOf('/') + 1) || './';

const SELF = new Set(['this', 'self', 'cls', 'super']);

/** How surely a call from `file` with `qualifier` reaches `d` (0 surest), undefined when it does not. */
function reach(d: Definition, file: string, qualifier: string | null, imported: ReadonlySet<string>): number | undefined {
  const near = d.file === file || imported.has(d.file) || imported.has(dirOf(d.file));
  // A plain call reaches a member only from inside its class (Java's implicit this): after what the file imports.
  if (!qualifier) return d.file === file ? (d.container ? 2 : 0) : near ? 1 : undefined;
  if (SELF.has(qualifier)) return d.file === file ? 0 : near ? 1 : undefined;
  if (d.container !== qualifier && stemOf(d.file) !== qualifier) return undefined;
  return near ? 0 : 1;
}

/**
 * The most-called definitions of the project, or of one folder or file of it (`scope`, project-relative):
 * up to `names` of the most-called names defined there are weighed, each call given to one definition
 * as said above.
 */
export function callCountsOf(store: CodeStore, scope: { path: string; isFile: boolean } | undefined, names = 400): CountedDefinition[] {
  const inScope = (file: string) => !scope || file === scope.path || (!scope.isFile && file.startsWith(`${scope.path}/`));
  const called = store.mostCalled(names * 2, scope && { path: scope.isFile ? scope.path : `${scope.path}/`, isFile: scope.isFile });
  const importsOf = new Map<string, Set<string>>();
  const imported = (file: string) => {
    let set = importsOf.get(file);
    if (!set) {
      set = new Set(store.importsOf(file).flatMap((i) => (i.target ? [i.target] : [])));
      importsOf.set(file, set);
    }
    return set;
  };
  const out: CountedDefinition[] = [];
  let weighed = 0;
  for (const { name } of called) {
    if (weighed >= names) break;
    const defs = foldOverloads(store.definitionsNamed(name).map(toDefinition)).filter((d) => !isDocumentation(d.file) && d.kind !== 'impl');
    const own = defs.filter((d) => inScope(d.file) && !TEST_PATH.test(d.file));
    if (!own.length) continue;
    weighed++;
    const counts = new Map<Definition, number>(own.map((d) => [d, 0]));
    for (const s of store.callSitesOf(name)) {
      let best: Definition[] = defs.length === 1 ? defs : [];
      let bestTier = 3;
      if (defs.length > 1) {
        for (const d of defs) {
          const tier = reach(d, s.path, s.qualifier, imported(s.path));
          if (tier === undefined || tier > bestTier) continue;
          if (tier < bestTier) best = [];
          bestTier = tier;
          best.push(d);
        }
      }
      const only = best.length === 1 ? best[0]! : undefined;
      if (only && counts.has(only)) counts.set(only, counts.get(only)! + Number(s.n));
    }
    for (const [definition, calls] of counts) if (calls > 0) out.push({ definition, calls });
  }
  return out.sort((a, b) => b.calls - a.calls || a.definition.file.localeCompare(b.definition.file) || a.definition.line - b.definition.line);
}
