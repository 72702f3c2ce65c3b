// How much of a fetched body is read: the fetcher stops there, and ctx_kb fetch's schema says so
// (a module of its own, so the tool's declaration does not load the fetcher).
export const MAX_BODY_BYTES = 10 * 1024 * 1024;
