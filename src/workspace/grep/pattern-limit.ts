// The longest pattern `search` takes (its input schema; the hook offers search only for patterns within
// it). A module of its own: search's declaration, which a new server loads to list its tools, needs
// the number and not the pattern checks (they load the regex engine).
export const SEARCH_PATTERN_MAX = 500;
