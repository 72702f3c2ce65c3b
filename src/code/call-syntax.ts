// Where a call sits in the syntax tree, across grammars: the scope a name is bound in (function,
// class or module), the parts of a call node, and which qualifiers may name a module or class.
import type { Node } from 'web-tree-sitter';

const FUNCTION_SCOPES = new Set([
  'function_declaration',
  'function_expression',
  'function',
  'generator_function',
  'generator_function_declaration',
  'arrow_function',
  'method_definition',
  'function_definition',
  'lambda',
  'method_declaration',
  'constructor_declaration',
  'func_literal',
  'lambda_expression',
]);
const CLASS_SCOPES = new Set(['class_body', 'class_definition', 'type_spec', 'interface_body', 'enum_body', 'record_declaration']);

/** Qualifiers that may name a module, package, namespace or class (anything else is an object). */
export const NAMESPACE_LIKE = new Set(['identifier', 'member_expression', 'attribute', 'selector_expression', 'field_access', 'scoped_identifier', 'package_identifier', 'nested_identifier', 'type_identifier']);

export interface Scope {
  node: Node;
  kind: 'function' | 'class' | 'module';
}

/**
 * The innermost function, class or the module a node is bound in, for many nodes of one tree: what
 * was found above each ancestor a walk passed is kept, so the walks of nodes in one function stop
 * where an earlier walk passed. Each step up is a search from the root in tree-sitter (`parent`
 * costs the node's depth): on `effect` these walks were ~8% of a parse worker's time.
 */
export function scopeFinder(): (node: Node) => Scope {
  /** By an ancestor's id: the scope of what lies under it. */
  const under = new Map<number, Scope>();
  return (node) => {
    const passed: number[] = [];
    let found: Scope | undefined;
    let top = node;
    for (let p = node.parent; p; top = p, p = p.parent) {
      found = under.get(p.id);
      if (found) break;
      passed.push(p.id);
      if (FUNCTION_SCOPES.has(p.type)) found = { node: p, kind: 'function' };
      else if (CLASS_SCOPES.has(p.type)) found = { node: p, kind: 'class' };
      if (found) break;
    }
    found ??= { node: top, kind: 'module' };
    for (const id of passed) under.set(id, found);
    return found;
  };
}

/** The parts of a call node: the called name and what it is called on (none for a plain call). */
export function callParts(node: Node): { name?: Node; qualifier?: Node } {
  if (node.type === 'method_invocation') return { name: node.childForFieldName('name') ?? undefined, qualifier: node.childForFieldName('object') ?? undefined };
  if (node.type !== 'call_expression' && node.type !== 'call') return {};
  const fn = node.childForFieldName('function');
  if (!fn) return {};
  if (fn.type === 'identifier') return { name: fn };
  const parts: Record<string, [string, string]> = { member_expression: ['property', 'object'], attribute: ['attribute', 'object'], selector_expression: ['field', 'operand'] };
  const fields = parts[fn.type];
  if (!fields) return {};
  return { name: fn.childForFieldName(fields[0]) ?? undefined, qualifier: fn.childForFieldName(fields[1]) ?? undefined };
}

/** Index expressions, with the field naming what is indexed. */
export const INDEXED: Record<string, string> = { index_expression: 'operand', array_access: 'array', subscript_expression: 'object' };
