// The rows the code store's queries answer with (store.ts).

export interface FileRow {
  id: number;
  path: string;
  size: number;
  mtime_ms: number;
  /** The stat and read time the text stage took it with (file-identity.ts). */
  ctime_ms: number;
  ino: number;
  taken_at: number;
  hash: string;
  language: string | null;
  lines: number;
  parser: number;
  /** The catalogue's version of the file's content, and the versions the text and parse stages took. */
  version: number;
  text_of: number;
  text_doc: number | null;
  parsed_of: number;
}

export interface DefinitionRow {
  id: number;
  path: string;
  name: string;
  kind: string;
  container: string | null;
  parent_id: number | null;
  signature: string;
  start_line: number;
  name_line: number;
  end_line: number;
  exported: number;
  bodiless: number;
  /** Space-separated names of the types it builds on. */
  bases: string | null;
}

export interface LocalRow {
  path: string;
  name: string;
  line: number;
  kind: string;
  def_id: number | null;
  /** The definition it is declared in: name, kind and range. */
  def_name: string | null;
  def_kind: string | null;
  def_start: number | null;
  def_end: number | null;
}

export interface ReferenceRow {
  path: string;
  name: string;
  line: number;
  kind: string;
  qualifier: string | null;
  def_id: number | null;
  /** What a call is made on (extract-bindings.ts). */
  via: string | null;
  /** How many times the name occurs with this kind on this line (one row per name, kind and line). */
  n: number;
  /** A call line's groups of calls made differently (JSON, call-groups.ts), or null. */
  calls: string | null;
  /** The enclosing definition's name and container. */
  def_name: string | null;
  def_container: string | null;
  def_line: number | null;
}

export interface ImportRow {
  path: string;
  line: number;
  source: string;
  target: string | null;
  /** The names it binds (extract-imports.ts). */
  names: string | null;
}

export interface FileMeta {
  path: string;
  size: number;
  mtimeMs: number;
  hash: string;
  language: string | undefined;
  lines: number;
  parser: number;
  /** The catalogue version the parse read (the row's own when absent). */
  version?: number;
}
