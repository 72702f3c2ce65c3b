// Names the common ways a run fails, so the reply says what happened before the agent reads output.
export type FailureKind = 'timeout' | 'command not found' | 'toolchain not set up' | 'file not found' | 'permission denied' | 'syntax error' | 'test failed' | 'runtime error';

export interface RunOutcome {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

const RULES: [FailureKind, RegExp][] = [
  // rustup's proxy with no toolchain chosen (its message holds "error:", which is no syntax error).
  ['toolchain not set up', /rustup could not choose a version of \w+ to run|no default (?:toolchain )?is configured|toolchain '[^']+' is not installed/i],
  ['command not found', /command not found|: not found\b|executable file not found|No such file or directory \(os error 2\)|is not recognized as an internal/i],
  ['syntax error', /SyntaxError|syntax error|ParseError|Parse error|IndentationError|unexpected token|error: expected|expected expression|\(syntax\)|error CS1\d{3}/i],
  [
    'test failed',
    /^--- FAIL|^FAIL\b|\bFAILED\b|test result: FAILED|Tests?:\s+\d+ failed|\d+ (?:tests? )?failed|✖ |AssertionError|assertion failed|not ok \d+/m,
  ],
  ['permission denied', /permission denied|EACCES|Operation not permitted/i],
  ['file not found', /No such file or directory|ENOENT|FileNotFoundError|cannot find the (?:file|path)|does not exist/i],
];

/** The kind of failure, or undefined when the run succeeded. */
export function classifyFailure(o: RunOutcome): FailureKind | undefined {
  if (o.timedOut) return 'timeout';
  if (o.exitCode === 0) return undefined;
  if (o.exitCode === 127) return 'command not found';
  if (o.exitCode === 126) return 'permission denied';
  const text = `${o.stderr}\n${o.stdout.slice(-20_000)}`;
  for (const [kind, pattern] of RULES) if (pattern.test(text)) return kind;
  return 'runtime error';
}
