// What extraction gives for one file: definitions, references and imports, as plain data (it crosses
// from a parse worker to the writer unchanged).
/**
 * The kinds of definition. code.db stores a kind as its place in this list (schema.ts, version 7): add
 * new kinds at the end, never reorder.
 */
export const DEFINITION_KINDS = ['function', 'method', 'constructor', 'class', 'interface', 'struct', 'enum', 'trait', 'impl', 'type', 'namespace', 'module', 'const', 'variable', 'field', 'macro', 'prototype'] as const;
export type DefinitionKind = (typeof DEFINITION_KINDS)[number];

/** The kinds of reference, stored as their place in this list like DEFINITION_KINDS. */
export const REFERENCE_KINDS = ['call', 'type', 'import', 'mention'] as const;
export type ReferenceKind = (typeof REFERENCE_KINDS)[number];

export interface ExtractedDefinition {
  name: string;
  kind: DefinitionKind;
  /** The class, interface, impl, namespace or receiver type it belongs to. */
  container: string | undefined;
  /** Index (in the list) of the definition it is nested in. */
  parent: number | undefined;
  signature: string;
  /** First line, doc comments, decorators and attributes included. */
  startLine: number;
  /** The line that names it. */
  nameLine: number;
  endLine: number;
  exported: boolean;
  /** A declaration without a body: an overload signature, a prototype, an abstract member. */
  bodiless: boolean;
  doc: string;
  /** Distinct words of the identifiers in its body (for questions in words). */
  words: string;
  /** Worth a block in the full-text index (functions, types, and outside C/C++ constants). */
  searchable: boolean;
  startByte: number;
  endByte: number;
  /** The types it builds on: extends, implements, Python bases, Go embedded fields. */
  bases?: string[];
}

export interface ExtractedReference {
  name: string;
  line: number;
  kind: ReferenceKind;
  qualifier: string | undefined;
  /** For a call, what it is made on as far as the file tells (extract-bindings.ts): a type, `^Class`, `~` or `?`. */
  via?: string;
  /** How many times the name occurs with this kind on this line (two calls of `f` on one line: 2). */
  n: number;
  /**
   * A call line's calls grouped by how they are made (qualifier, via, argument count), when they differ
   * or an argument count is known; absent when qualifier, via and n say it all.
   */
  calls?: CallGroup[];
  /** Index of the innermost definition the reference sits in. */
  enclosing: number | undefined;
}

/** Calls of a name on one line made the same way: qualifier, via, how many, and their argument count (Java) or null. */
export type CallGroup = [qualifier: string | null, via: string | null, n: number, args: number | null];

/** A declaration that is not a definition of its own: a local binding, a parameter, a field of an
 * object or record type, an enum member. Found by name, ranked below every definition. */
export const LOCAL_KINDS = ['local', 'parameter', 'field', 'member'] as const;
export type LocalKind = (typeof LOCAL_KINDS)[number];

export interface ExtractedLocal {
  name: string;
  line: number;
  kind: LocalKind;
  /** Index of the innermost definition it is declared in. */
  enclosing: number | undefined;
}

export interface ExtractedImport {
  line: number;
  source: string;
  /** The names it binds (extract-imports.ts). */
  names?: string;
}

export interface Extracted {
  definitions: ExtractedDefinition[];
  references: ExtractedReference[];
  imports: ExtractedImport[];
  locals: ExtractedLocal[];
}
