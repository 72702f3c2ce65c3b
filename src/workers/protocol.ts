// The messages between a pool and its workers. A worker says `ready` once it serves jobs; each job
// gets one reply with its id. Plain data only: both sides may run on different runtimes' workers.

export interface JobMessage {
  id: number;
  job: unknown;
}

export type ReplyMessage = { type: 'ready' } | { id: number; ok: true; result: unknown } | { id: number; ok: false; error: { message: string; code?: string; hint?: string } };

export function isReady(message: unknown): message is { type: 'ready' } {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'ready';
}

export function isReply(message: unknown): message is Exclude<ReplyMessage, { type: 'ready' }> {
  return typeof message === 'object' && message !== null && typeof (message as { id?: unknown }).id === 'number' && typeof (message as { ok?: unknown }).ok === 'boolean';
}
