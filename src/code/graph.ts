// Questions the code index answers: definitions of a name (owner-qualified, overloads folded into
// their implementation), the definition around a line, a file's outline, callers with their
// enclosing functions and how sure each edge is, callees, imports in and out, impact, and definition
// blocks for questions in words. Every answer first re-parses the files it rests on if they were
// touched since indexing; each returns undefined when the index cannot answer yet.
export { type BlockAnswer, type BlockHit, searchBlocks } from './graph-blocks.ts';
export { type Definition, type Definitions, definitionAt, definitionStrength, findDefinitions, foldOverloads, localLabel, outlineOf } from './graph-definitions.ts';
export { type Dependencies, dependenciesOf, type ImpactEntry, impactOf } from './graph-impact.ts';
export { type Overview, overviewOf } from './graph-overview.ts';
export { type Callee, type Certainty, calleesOf, type Use, type Uses, usesOf } from './graph-uses.ts';
