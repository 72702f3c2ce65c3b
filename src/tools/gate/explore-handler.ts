
import { expandBlock } from '../../retrieval/block.ts';
import type { Definition, Use } from '../../retrieval/graph.ts';
import { leafSymbol, ownerSymbol } from '../../retrieval/query.ts';
import type { Hit } from '../../retrieval/types.ts';
import { isTestPath } from '../../retrieval/kinds.ts';
import { UNENTERED_DIRS } from '../../workspace/list.ts';
import { AppError, ErrorCode } from '../../errors.ts';
import { resolveSafe } from '../../security/resolve-safe.ts';
import { judgeSecret, secretRefusal } from '../../security/secret-files.ts';
import { walk } from '../../workspace/walk.ts';
import type { ToolCallContext, ToolReply } from '../registry.ts';
import { findSymbol, lineReader, reportIndexProgress, resolveScope, tokenBudget } from './common.ts';
import type { ExploreArgs as Args } from './explore.ts';


const GRAPH_NOTE =
  'file-scan answer: no graph backend answered. The code index (backend builtin) resolves calls through imports, follows call chains transitively and tells same-named symbols apart.';

const KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'function', 'typeof', 'new', 'await', 'sizeof', 'super', 'this', 'match', 'elif', 'print', 'assert', 'with', 'not', 'and', 'or', 'in', 'fn', 'func', 'def', 'defer', 'go', 'select', 'delete', 'void', 'case']);

const IMPORT = /^\s*(?:import\b|from\s+\S+\s+import\b|export\s+(?:\*|\{[^}]*\})\s+from\b|(?:const|let|var)\s+.*=\s*require\(|use\s+[\w:]+|#\s*include\b|require(?:_relative)?\s*\(?['"]|using\s+[\w.]+;|package\s+[\w.]+;)/;

async function definitionsAndUses(ctx: ToolCallContext, anchor: string): Promise<{ defs: Hit[]; uses: Hit[] }> {
  const d = await findSymbol(ctx, leafSymbol(anchor));
  return { defs: d.hits.filter((h) => h.kind === 'definition'), uses: d.hits.filter((h) => h.kind === 'call' || h.kind === 'reference' || h.kind === 'test') };
}

/** The header line of the function or class a line sits in, if any. */
function enclosingHeader(lines: string[], line: number, file: string): string | undefined {
  const block = expandBlock(lines, line, file);
  if (block.start === line && block.end === line) return undefined;
  return lines[block.start - 1]?.trim().slice(0, 80);
}

async function callers(ctx: ToolCallContext, anchor: string, impact: boolean): Promise<string[]> {
  const { defs, uses } = await definitionsAndUses(ctx, anchor);
  const linesOf = lineReader(ctx, ctx.app.workdirs.dirs[0]!);
  const out = [`${anchor}: ${defs.length} definition${defs.length === 1 ? '' : 's'}${defs.length ? ` (${defs.slice(0, 3).map((d) => `${d.file}:${d.line}`).join(', ')})` : ''}, ${uses.length} use${uses.length === 1 ? '' : 's'} in ${new Set(uses.map((u) => u.file)).size} files`];
  const byFile = new Map<string, Hit[]>();
  for (const u of uses) byFile.set(u.file, [...(byFile.get(u.file) ?? []), u]);
  const files = [...byFile.entries()].sort((a, b) => b[1].length - a[1].length).slice(0, 25);
  for (const [file, hits] of files) {
    const lines = await linesOf(file);
    const sites = hits.slice(0, 5).map((h) => {
      const where = enclosingHeader(lines, h.line, file);
      return `${h.line}${h.kind === 'test' ? ' (test)' : ''}${where ? ` in ${where}` : ''}`;
    });
    out.push(`${file}: ${sites.join('; ')}${hits.length > 5 ? `; +${hits.length - 5} more` : ''}`);
  }
  if (impact) {
    const tests = new Set(uses.filter((u) => u.kind === 'test').map((u) => u.file));
    out.push(`impact: changing ${anchor} touches ${byFile.size} files${tests.size ? `, ${tests.size} of them tests: ${[...tests].slice(0, 8).join(', ')}` : ''}`);
  }
  return out;
}

async function callees(ctx: ToolCallContext, anchor: string): Promise<string[]> {
  const { defs } = await definitionsAndUses(ctx, anchor);
  const def = defs[0];
  if (!def) return [`no definition of ${anchor} found; try locate`];
  const lines = await lineReader(ctx, ctx.app.workdirs.dirs[0]!)(def.file);
  const block = expandBlock(lines, def.line, def.file);
  const body = lines.slice(block.start, block.end).join('\n');
  const called = new Map<string, number>();
  for (const m of body.matchAll(/([A-Za-z_$][\w$]*)\s*(?:<[^>()]*>)?\s*\(/g)) {
    const name = m[1]!;
    if (KEYWORDS.has(name) || name === leafSymbol(anchor)) continue;
    called.set(name, (called.get(name) ?? 0) + 1);
  }
  const list = [...called.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40);
  return [`${anchor} (${def.file}:${block.start}-${block.end}) calls ${list.length} names:`, list.map(([n, c]) => (c > 1 ? `${n}×${c}` : n)).join(', ')];
}

async function dependencies(ctx: ToolCallContext, anchor: string | undefined): Promise<string[]> {
  let file: string | undefined;
  if (anchor) {
    const { defs } = await definitionsAndUses(ctx, anchor);
    file = defs[0]?.file;
    if (!file) return [`no definition of ${anchor} found; try locate`];
  }
  if (!file) return ['dependencies need an anchor (a symbol whose file is examined)'];
  const lines = await lineReader(ctx, ctx.app.workdirs.dirs[0]!)(file);
  const imports = lines.map((l, i) => ({ l: l.trim(), n: i + 1 })).filter((x) => IMPORT.test(x.l));
  const shown = imports.slice(0, 60).map((x) => `${x.n}: ${x.l.slice(0, 120)}`);
  return [`${file} imports ${imports.length}:`, ...shown, ...(imports.length > shown.length ? [`… ${imports.length - shown.length} more imports`] : [])];
}

/** The part of the project an overview covers: the whole of it, a folder, or a file. */
interface OverviewScope {
  relative: string;
  isFile: boolean;
}

/** The overview's anchor as a folder or file of the project (secrets refused); a clear error otherwise. */
function overviewScope(ctx: ToolCallContext, anchor: string | undefined): OverviewScope {
  if (!anchor) return { relative: '', isFile: false };
  const target = resolveSafe(ctx.app.runtime.fs, ctx.app.workdirs, anchor);
  const stat = ctx.app.runtime.fs.statSync(target.real);
  if (!stat) {
    throw new AppError(ErrorCode.InvalidArgument, `overview's anchor '${anchor}' is not a folder or file of the project`, {
      hint: 'give a folder (e.g. "src/") or a file (e.g. "src/main.ts"), or leave anchor out for the whole project',
    });
  }
  const secret = judgeSecret(ctx.app.workdirs, { relative: target.relative, real: target.real, folder: stat.isDirectory });
  if (secret) throw secretRefusal(target.relative, secret, 'described');
  return { relative: target.relative.replace(/^\.$/, ''), isFile: !stat.isDirectory };
}

async function overview(ctx: ToolCallContext, scope: OverviewScope): Promise<string[]> {
  if (scope.isFile) {
    const lines = await lineReader(ctx, ctx.app.workdirs.dirs[0]!)(scope.relative);
    const imports = lines.filter((l) => IMPORT.test(l.trim())).length;
    return [`${scope.relative}: ${plural(lines.length, 'line')}, ${plural(imports, 'import line')}; a file's definitions and who calls them need the code index`];
  }
  const root = resolveScope(ctx, scope.relative || undefined);
  const dirs = new Map<string, { files: number; exts: Map<string, number> }>();
  const notable: string[] = [];
  let total = 0;
  const drop = new Set([...UNENTERED_DIRS, ...ctx.app.config.scan.excludeDirs]);
  for await (const e of walk(ctx.app.runtime.fs, { root: root.workdir, base: root.real, includeHidden: false, respectGitignore: ctx.app.config.scan.respectGitignore, listOnlyDirs: drop, excludeDirs: drop, maxDepth: 6, signal: ctx.signal })) {
    if (e.type !== 'file') continue;
    total++;
    const top = e.rel.includes('/') ? e.rel.split('/').slice(0, Math.min(2, e.rel.split('/').length - 1)).join('/') : '.';
    const entry = dirs.get(top) ?? { files: 0, exts: new Map() };
    entry.files++;
    const ext = /\.([a-z0-9]+)$/i.exec(e.name)?.[1]?.toLowerCase() ?? '(none)';
    entry.exts.set(ext, (entry.exts.get(ext) ?? 0) + 1);
    dirs.set(top, entry);
    if (/^(readme|package\.json|go\.mod|cargo\.toml|pyproject\.toml|setup\.py|makefile|dockerfile|tsconfig\.json|deno\.json)/i.test(e.name) && e.depth <= 2) notable.push(e.rel);
    if (total > 50_000) break;
  }
  const rows = [...dirs.entries()].sort((a, b) => b[1].files - a[1].files).slice(0, 30);
  return [
    `${total} files (gitignore and ${ctx.app.config.scan.excludeDirs.join(', ')} skipped)`,
    ...rows.map(([d, v]) => `${d}: ${v.files} files (${[...v.exts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([x, n]) => `${x} ${n}`).join(', ')})`),
    notable.length ? `key files: ${notable.slice(0, 15).join(', ')}` : '',
  ].filter(Boolean);
}

const where = (d: { file: string; line: number }) => `${d.file}:${d.line}`;
const qualified = (d: { name: string; container?: string | undefined }) => (d.container ? `${d.container}.${d.name}` : d.name);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
/** Calls counted as written: a line calling the name twice counts twice. */
const callsIn = (uses: readonly Use[]) => uses.reduce((n, u) => n + (u.times ?? 1), 0);

const SITES_PER_FILE = 15;
const CERTAINTY_ORDER: readonly Use['certainty'][] = ['receiver-type', 'imported', 'same-package', 'same-file', 'qualified', 'override', 'name-only'];
const CERTAINTY_WORDS: Record<Use['certainty'], string> = {
  'receiver-type': 'by receiver type',
  imported: 'through an import',
  'same-package': 'in the same package',
  'same-file': 'in the same file',
  qualified: 'by class name',
  override: 'on a base type (may run this override)',
  'name-only': 'by name only',
};
const CERTAINTY_MARK: Record<Use['certainty'], string> = {
  'receiver-type': ' (receiver type)',
  imported: ' (import)',
  'same-package': ' (same package)',
  'same-file': '',
  qualified: ' (class name)',
  override: ' (override candidate: call on a base type)',
  'name-only': ' (by name only)',
};

function definitionsLine(anchor: string, defs: Definition[]): string {
  return `${anchor}: ${plural(defs.length, 'definition')}${defs.length ? ` (${defs.slice(0, 3).map((d) => `${where(d)} ${d.kind}`).join(', ')}${defs.length > 3 ? ', …' : ''})` : ''}`;
}

/** Callers from the code index: real calls grouped by file with their enclosing function; other uses counted apart. */
async function graphCallers(ctx: ToolCallContext, anchor: string): Promise<string[] | undefined> {
  const u = await ctx.app.graph.uses(leafSymbol(anchor), ownerSymbol(anchor));
  if (!u) return undefined;
  // A call on a base type that may run the anchor's override is a candidate, listed apart from the calls.
  const calls = u.uses.filter((x) => x.kind === 'call' && x.certainty !== 'override');
  const overrides = u.uses.filter((x) => x.certainty === 'override');
  const count = (kind: Use['kind']) => u.uses.filter((x) => x.kind === kind).length;
  const byFile = new Map<string, Use[]>();
  for (const c of calls) byFile.set(c.file, [...(byFile.get(c.file) ?? []), c]);
  const sure = CERTAINTY_ORDER.map((c) => [c, callsIn(calls.filter((x) => x.certainty === c))] as const).filter(([, n]) => n > 0);
  const out = [
    `${definitionsLine(anchor, u.definitions)}; ${plural(callsIn(calls), 'call')} in ${plural(byFile.size, 'file')}`,
    `not calls, counted apart: ${plural(count('type'), 'type use')}, ${plural(count('import'), 'import')}, ${plural(count('mention'), 'mention')} in comments`,
  ];
  if (sure.length) out.push(`how resolved: ${sure.map(([c, n]) => `${n} ${CERTAINTY_WORDS[c]}`).join(', ')}`);
  if (u.byNameElsewhere) out.push(`not listed: ${plural(u.byNameElsewhere, 'call')} of the name on receivers of unknown type (other owners define ${leafSymbol(anchor)} too)`);
  const files = [...byFile.entries()].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
  for (const [file, sites] of files.slice(0, 40)) {
    // How each call was resolved: once for the file when every site agrees.
    const one = sites.every((c) => c.certainty === sites[0]!.certainty);
    const shown = sites.slice(0, SITES_PER_FILE).map((c) => `${c.line}${(c.times ?? 1) > 1 ? ` (×${c.times})` : ''}${c.caller ? ` in ${qualified(c.caller)}` : ' (top level)'}${one ? '' : CERTAINTY_MARK[c.certainty]}`);
    out.push(`${file}: ${shown.join('; ')}${sites.length > SITES_PER_FILE ? `; +${sites.length - SITES_PER_FILE} more` : ''}${one ? CERTAINTY_MARK[sites[0]!.certainty] : ''}`);
  }
  if (files.length > 40) out.push(`… ${files.length - 40} more files`);
  if (overrides.length) {
    const shown = overrides.slice(0, 10).map((c) => `${where(c)}${c.caller ? ` in ${qualified(c.caller)}` : ''}`);
    out.push(`override candidates, calls on a base type that may run this override (not counted above): ${plural(overrides.length, 'call')} — ${shown.join('; ')}${overrides.length > 10 ? `; +${overrides.length - 10} more` : ''}`);
  }
  return out;
}

async function graphImpact(ctx: ToolCallContext, anchor: string): Promise<string[] | undefined> {
  const r = await ctx.app.graph.impact(leafSymbol(anchor), ownerSymbol(anchor), 3);
  if (!r) return undefined;
  const tests = [...new Set(r.callers.map((c) => c.file).filter((f) => isTestPath(f)))];
  const files = new Set(r.callers.map((c) => c.file));
  const out = [`changing ${anchor} reaches ${plural(r.callers.length, 'caller')} in ${plural(files.size, 'file')} (3 levels of calls), ${plural(r.dependents.length, 'file')} import its file${tests.length ? `; tests: ${tests.slice(0, 8).join(', ')}` : ''}`];
  for (let depth = 1; depth <= 3; depth++) {
    const level = r.callers.filter((c) => c.depth === depth);
    if (!level.length) continue;
    out.push(`depth ${depth}: ${level.slice(0, 30).map((c) => `${c.name} ${where(c)}`).join(' · ')}${level.length > 30 ? ` · +${level.length - 30} more` : ''}`);
  }
  if (r.dependents.length) out.push(`importers: ${r.dependents.slice(0, 30).join(', ')}${r.dependents.length > 30 ? `, +${r.dependents.length - 30} more` : ''}`);
  return out;
}

/** Why a name has nothing to explore: it is declared only as a local (say where), or not at all. */
async function noDefinition(ctx: ToolCallContext, anchor: string): Promise<string> {
  const local = (await ctx.app.graph.definitions(leafSymbol(anchor), ownerSymbol(anchor), { locals: true }))?.[0];
  if (local?.local) return `${anchor} is no definition of its own: ${local.signature.replace(/:.*$/, '')} at ${local.file}:${local.line}${local.local.in ? `; explore ${local.local.in.name}` : ''}`;
  return `no definition of ${anchor} found; try locate`;
}

async function graphCallees(ctx: ToolCallContext, anchor: string): Promise<string[] | undefined> {
  const defs = await ctx.app.graph.definitions(leafSymbol(anchor), ownerSymbol(anchor));
  if (!defs) return undefined;
  const def = defs[0];
  if (!def) return [await noDefinition(ctx, anchor)];
  const callees = await ctx.app.graph.callees(def);
  if (!callees) return undefined;
  const others = defs.length > 1 ? ` (${defs.length - 1} other definitions: ${defs.slice(1, 4).map(where).join(', ')}; name one as Owner.${def.name})` : '';
  const out = [`${qualified(def)} (${def.file}:${def.start}-${def.end}) calls ${plural(callees.length, 'name')}${others}:`];
  for (const c of callees.slice(0, 60)) {
    const at = c.definedAt.map((d) => `${where(d)}${CERTAINTY_MARK[d.certainty]}`).join(', ');
    const none = c.local ? ' (a parameter or local)' : ' (outside the project)';
    out.push(`${c.qualifier ? `${c.qualifier}.` : ''}${c.name}${c.count > 1 ? ` ×${c.count}` : ''}${at ? ` → ${at}` : none}`);
  }
  if (callees.length > 60) out.push(`… ${callees.length - 60} more`);
  return out;
}

async function graphDependencies(ctx: ToolCallContext, anchor: string): Promise<string[] | undefined> {
  let file: string | undefined;
  const asFile = ctx.app.runtime.fs.statSync(`${ctx.app.code.root}/${anchor}`)?.isFile;
  if (asFile) file = anchor.replace(/^\.\//, '');
  else {
    const defs = await ctx.app.graph.definitions(leafSymbol(anchor), ownerSymbol(anchor));
    if (!defs) return undefined;
    file = defs[0]?.file;
    if (!file) return [await noDefinition(ctx, anchor)];
  }
  const d = await ctx.app.graph.dependencies(file);
  if (!d) return undefined;
  const out = [`${file} imports ${d.imports.length}, is imported by ${d.importedBy.length}`];
  for (const i of d.imports.slice(0, 50)) out.push(`  ${i.line}: ${i.source}${i.target ? ` → ${i.target}` : ' (outside the project)'}`);
  if (d.imports.length > 50) out.push(`  … ${d.imports.length - 50} more imports`);
  if (d.importedBy.length) out.push(`imported by: ${d.importedBy.slice(0, 40).map((i) => `${i.path}:${i.line}`).join(', ')}${d.importedBy.length > 40 ? `, +${d.importedBy.length - 40} more` : ''}`);
  return out;
}

async function graphOverview(ctx: ToolCallContext, scope: OverviewScope): Promise<string[] | undefined> {
  const o = await ctx.app.graph.overview(scope.relative || undefined);
  if (!o) return undefined;
  const files = o.modules.reduce((n, m) => n + m.files, 0);
  const within = o.scope ? ` within ${o.scope}` : '';
  const out = [`${plural(files, 'source file')} in ${plural(o.modules.length, 'module')}${within}`];
  for (const m of o.modules.slice(0, 25)) {
    out.push(`${m.dir}: ${plural(m.files, 'file')} (${m.languages.slice(0, 3).join(', ')})${m.key.length ? `; key: ${m.key.map((k) => `${qualified(k)} ${where(k)} (${plural(k.calls, 'call')})`).join(', ')}` : ''}`);
  }
  if (o.modules.length > 25) out.push(`… ${o.modules.length - 25} more modules`);
  if (o.dependencies.length) out.push(`depends: ${o.dependencies.slice(0, 20).map((d) => `${d.from} → ${d.to} (${d.imports})`).join(' · ')}${o.dependencies.length > 20 ? ` · +${o.dependencies.length - 20} more` : ''}`);
  return out;
}

export async function runExplore(args: Args, ctx: ToolCallContext): Promise<ToolReply> {
  await reportIndexProgress(ctx);
  let relation = args.relation ?? 'auto';
  if (relation === 'auto') {
    // Without a question, an anchor is asked about its callers, no anchor gets the overview.
    const q = (args.question ?? '').toLowerCase();
    if (!args.anchor) relation = 'overview';
    else if (/\b(calls?|uses?)\b.*\b(what|which)\b|\bcallees?\b|what does .* call/.test(q)) relation = 'callees';
    else if (/\b(import|depend|require)/.test(q)) relation = 'dependencies';
    else if (/\b(break|impact|change|affect|blast)/.test(q)) relation = 'impact';
    else relation = 'callers';
  }
  if (relation !== 'overview' && relation !== 'dependencies' && !args.anchor) {
    return { text: `${relation} needs an anchor symbol, e.g. {"relation":"${relation}","anchor":"OrderHandler"}`, structured: { relation, lines: [] } };
  }
  const anchor = args.anchor ?? '';
  const scope = relation === 'overview' ? overviewScope(ctx, args.anchor) : undefined;
  const fromGraph =
    scope
      ? await graphOverview(ctx, scope)
      : relation === 'callees'
        ? await graphCallees(ctx, anchor)
        : relation === 'dependencies'
          ? await graphDependencies(ctx, anchor)
          : relation === 'impact'
            ? await graphImpact(ctx, anchor)
            : await graphCallers(ctx, anchor);
  const lines =
    fromGraph ??
    (scope
      ? await overview(ctx, scope)
      : relation === 'callees'
        ? await callees(ctx, anchor)
        : relation === 'dependencies'
          ? await dependencies(ctx, args.anchor)
          : await callers(ctx, anchor, relation === 'impact'));
  const cpt = ctx.app.config.estimation.charsPerToken;
  const budget = tokenBudget(ctx, undefined) * cpt;
  let text = `${relation}: ${lines.join('\n')}`;
  if (text.length > budget) text = `${text.slice(0, text.lastIndexOf('\n', budget))}\n(cut to fit ${tokenBudget(ctx, undefined)} tokens)`;
  const status = ctx.app.code.status();
  text += fromGraph
    ? `\n(answered from ${ctx.app.graph.name === 'builtin' ? 'the code index' : `the ${ctx.app.graph.name} graph, the code index where it had no answer`})`
    : `\n(${GRAPH_NOTE}${ctx.app.graph.name !== 'none' && status.state === 'building' ? ` The code index is being built (${status.done} of ${status.total} files); ask again shortly.` : ''})`;
  return { text, structured: { relation, anchor: args.anchor ?? null, lines, graph: fromGraph !== undefined } };
}
