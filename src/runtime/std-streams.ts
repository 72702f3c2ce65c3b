// Writing to stdout and stderr when the reader may have gone. `ctxgate call … | head` closes the pipe
// early; Node and Deno then report EPIPE as an unhandled 'error' event with a stack trace. A closed
// pipe means nobody is reading: stop writing and let the command finish with its own status, as
// `git log | head` does (issue 11). Other write errors (a full disk) still reach the caller.
import process from 'node:process';
import type { Writable } from 'node:stream';

function isClosedPipe(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'EPIPE';
}

const guarded = new WeakSet<Writable>();
const closed = new WeakSet<Writable>();

/** Turns the stream's EPIPE 'error' event from a crash into a note that its reader has gone. */
function guard(stream: Writable): void {
  if (guarded.has(stream)) return;
  guarded.add(stream);
  stream.on('error', (error) => {
    if (isClosedPipe(error)) closed.add(stream);
  });
}

function write(stream: Writable, text: string): Promise<void> {
  guard(stream);
  if (closed.has(stream)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    try {
      stream.write(text, (error) => {
        if (error && !isClosedPipe(error)) reject(error);
        else resolve();
      });
    } catch (error) {
      // Deno's stdout throws from write() itself.
      if (isClosedPipe(error)) {
        closed.add(stream);
        resolve();
      } else reject(error);
    }
  });
}

export function writeStdout(text: string): Promise<void> {
  return write(process.stdout, text);
}

/** Fire and forget: a failing stderr has nowhere left to report to. */
export function writeStderr(text: string): void {
  write(process.stderr, text).catch(() => undefined);
}
