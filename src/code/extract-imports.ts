// The names an import statement binds, written `local=remote` and space-separated: `remote` is `*`
// for a whole module, namespace or package (`import * as core`, `import os.path as p`, a Go import),
// `default` for a default import; a re-export is `>exported=remote` (`>*` for `export * from`); a
// lone `*` brings every name in (`from x import *`, a Go dot import, a Java `.*`).
import type { Node } from 'web-tree-sitter';
import type { LanguageId } from './languages.ts';

function jsNames(stmt: Node): string[] {
  const out: string[] = [];
  const reexport = stmt.type === 'export_statement';
  for (const child of stmt.namedChildren) {
    if (!child) continue;
    if (child.type === 'import_clause') {
      for (const part of child.namedChildren) {
        if (!part) continue;
        if (part.type === 'identifier') out.push(`${part.text}=default`);
        else if (part.type === 'namespace_import') {
          const id = part.namedChildren.find((n) => n?.type === 'identifier');
          if (id) out.push(`${id.text}=*`);
        } else if (part.type === 'named_imports') {
          for (const spec of part.namedChildren) {
            const name = spec?.childForFieldName('name')?.text;
            if (name) out.push(`${spec?.childForFieldName('alias')?.text ?? name}=${name}`);
          }
        }
      }
    } else if (reexport && child.type === 'export_clause') {
      for (const spec of child.namedChildren) {
        const name = spec?.childForFieldName('name')?.text;
        if (name) out.push(`>${spec?.childForFieldName('alias')?.text ?? name}=${name}`);
      }
    } else if (reexport && child.type === 'namespace_export') {
      const id = child.namedChildren.find((n) => n?.type === 'identifier' || n?.type === 'string');
      if (id) out.push(`>${id.text}=*`);
    }
  }
  if (reexport && !out.length && stmt.children.some((c) => c?.type === '*')) out.push('>*');
  return out;
}

function pythonNames(stmt: Node, source: Node): string[] {
  if (stmt.type === 'import_statement') {
    const alias = source.parent?.type === 'aliased_import' ? source.parent.childForFieldName('alias')?.text : undefined;
    // `import a.b.c` is reached as `a.b.c.f()`, whose qualifier the index keeps as its last part.
    return [`${alias ?? source.text.slice(source.text.lastIndexOf('.') + 1)}=*`];
  }
  const out: string[] = [];
  for (const child of stmt.namedChildren) {
    if (!child || child === stmt.childForFieldName('module_name')) continue;
    if (child.type === 'wildcard_import') out.push('*');
    else if (child.type === 'dotted_name') out.push(`${child.text}=${child.text}`);
    else if (child.type === 'aliased_import') {
      const name = child.childForFieldName('name')?.text;
      if (name) out.push(`${child.childForFieldName('alias')?.text ?? name}=${name}`);
    }
  }
  return out;
}

function goNames(stmt: Node, source: Node): string[] {
  const alias = stmt.childForFieldName('name')?.text;
  if (alias === '.') return ['*'];
  if (alias === '_') return [];
  const path = source.text.replace(/^["`]|["`]$/g, '').split('/');
  // `example.com/x/v2` is package x; `gopkg.in/yaml.v3` is package yaml.
  let last = path[path.length - 1] ?? '';
  if (/^v\d+$/.test(last) && path.length > 1) last = path[path.length - 2]!;
  last = last.replace(/\.v\d+$/, '').replace(/^go-/, '').replace(/[-.].*$/, '');
  return [`${alias ?? last}=*`];
}

function javaNames(stmt: Node, source: Node): string[] {
  if (stmt.namedChildren.some((c) => c?.type === 'asterisk')) return ['*'];
  const last = source.text.slice(source.text.lastIndexOf('.') + 1);
  return [`${last}=${last}`];
}

/** The languages whose imports bind names (importNames); every other language's are stored with none. */
const BINDING_LANGUAGES: ReadonlySet<LanguageId> = new Set(['typescript', 'tsx', 'javascript', 'python', 'go', 'java']);

/** Whether a language's imports may bind names: a C include, say, binds none. */
export function importsBindNames(language: LanguageId): boolean {
  return BINDING_LANGUAGES.has(language);
}

/** The names an import binds, as stored (empty when it binds none the resolver uses; see BINDING_LANGUAGES). */
export function importNames(language: LanguageId, stmt: Node, source: Node): string {
  switch (language) {
    case 'typescript':
    case 'tsx':
    case 'javascript':
      return stmt.type === 'call_expression' ? '' : jsNames(stmt).join(' ');
    case 'python':
      return pythonNames(stmt, source).join(' ');
    case 'go':
      return goNames(stmt, source).join(' ');
    case 'java':
      return javaNames(stmt, source).join(' ');
    default:
      return '';
  }
}

/** Parsed `names`: local name → remote name (`*` whole module), and what the statement re-exports. */
export function parseNames(names: string | null | undefined): { local: Map<string, string>; reexports: Map<string, string>; star: boolean; starExport: boolean } {
  const local = new Map<string, string>();
  const reexports = new Map<string, string>();
  let star = false;
  let starExport = false;
  for (const item of (names ?? '').split(' ')) {
    if (!item) continue;
    if (item === '*') star = true;
    else if (item === '>*') starExport = true;
    else {
      const eq = item.indexOf('=');
      if (eq < 0) continue;
      if (item.startsWith('>')) reexports.set(item.slice(1, eq), item.slice(eq + 1));
      else local.set(item.slice(0, eq), item.slice(eq + 1));
    }
  }
  return { local, reexports, star, starExport };
}
