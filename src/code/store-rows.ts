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

/**
 * Schema 11's reference and local rows (issue 21 item 8): the enclosing definition as its place in
 * the file's definitions (`def_off`, from code_file_rows.first_def: a byte or two, not an id of
 * three), and a reference's rarely set qualifier, receiver, count and call groups in one column
 * `more` (a record's header holds a byte per column): NULL when they are null, null, 1, null (98.5%
 * of the Linux tree's rows); the count alone when only it differs; else a JSON array [qualifier, via,
 * n, calls] without the defaults at its end.
 */
export function refMoreSql(qualifier: string, via: string, n: string, calls: string): string {
  return `CASE WHEN ${qualifier} IS NULL AND ${via} IS NULL AND ${calls} IS NULL THEN nullif(${n}, 1)
    WHEN ${calls} IS NULL AND ${n} = 1 THEN CASE WHEN ${via} IS NULL THEN json_array(${qualifier}) ELSE json_array(${qualifier}, ${via}) END
    WHEN ${calls} IS NULL THEN json_array(${qualifier}, ${via}, ${n}) ELSE json_array(${qualifier}, ${via}, ${n}, ${calls}) END`;
}

/** An import's stored source (schema 12): where it begins in the target's path when it ends it, else its text. */
export function importSourceSql(source: string, target: string): string {
  return `CASE WHEN ${target} IS NOT NULL AND length(${source}) > 0 AND length(${target}) > length(${source}) AND substr(${target}, length(${target}) - length(${source}) + 1) = ${source} THEN length(${target}) - length(${source}) ELSE ${source} END`;
}

/** An import's source text back (aliases: `i` the import, `t` its target). */
export const IMPORT_SOURCE_SQL = "CASE WHEN typeof(i.source) = 'integer' THEN substr(t.path, i.source + 1) ELSE i.source END";

/** A reference's count from its `more` (table alias `r`). */
export const REF_N_SQL = "CASE WHEN typeof(r.more) = 'integer' THEN r.more ELSE coalesce(r.more->>2, 1) END";

/** A reference row's qualifier, via, n and calls from its `more` (table alias `r`; `->>` finds nothing in a number). */
export const REF_MORE_COLUMNS = `r.more->>0 AS qualifier, r.more->>1 AS via, ${REF_N_SQL} AS n, r.more->>3 AS calls`;
