// The code text index's contract with its readers (issue 14): a trigram index over every text file
// of the catalogue that narrows a literal or regex search to the files that may match. The index
// only ever narrows: every file that matches now is among the candidates (files not indexed yet,
// or changed since they were indexed, are always candidates), and the caller verifies each candidate
// by an exact scan, so results are identical to a full scan.

export interface TextQuery {
  pattern: string;
  /** The pattern is a literal string, not a regex. */
  literal: boolean;
  ignoreCase: boolean;
  /** Whole words only (a match must not touch a letter, digit or underscore on either side). */
  word?: boolean;
}

export interface TextCandidates {
  /** Files that may match, relative to the index root, `/`-separated, sorted. */
  files: string[];
  /** Catalogue files under the scope that the index ruled out (for logs and figures). */
  ruledOut: number;
  /** A candidate's size when catalogued; undefined for one the catalogue does not hold (touched since). */
  sizeOf?: (path: string) => number | undefined;
  /**
   * Given when the catalogue's rules are a walk's and current (TextIndexSource.rulesCurrent): true
   * for a file the catalogue holds, which a walk of the root reaches and no .gitignore excludes.
   */
  catalogued?: (path: string) => boolean;
}

export interface TextIndexStatus {
  state: 'idle' | 'building' | 'ready' | 'unavailable';
  /** Files indexed in their current version / text files in the catalogue. */
  indexed: number;
  total: number;
  /** Bytes the postings take in the database. */
  bytes: number;
  error?: string;
}

export interface TextIndexReader {
  /**
   * The files under `scope` (a folder relative to the index root, '' for all) that may match; undefined
   * when the index cannot narrow this query now (not built yet, or the pattern has no required
   * trigram): the caller scans as before.
   */
  candidates(query: TextQuery, scope: string, signal?: AbortSignal): Promise<TextCandidates | undefined>;
  /**
   * These files (relative paths; new, changed or deleted) changed on disk since they were indexed — a
   * file watcher or a tool that wrote them says so: they are candidates for every query until the
   * index has taken their new version.
   */
  touched(paths: Iterable<string>): void;
  status(): TextIndexStatus;
  /** status().state alone: no count of the catalogue (a full read of it before a first query). */
  state?(): TextIndexStatus['state'];
}
