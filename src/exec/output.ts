// Capped output capture: keeps at most `limit` bytes, then counts what it drops, and decodes without
// splitting a UTF-8 character at the cut.
import { utf8Boundary, utf8Start } from '../text/utf8.ts';
export class CappedOutput {
  private readonly chunks: Uint8Array[] = [];
  private kept = 0;
  private dropped = 0;
  private readonly limit: number;

  constructor(limit: number) {
    this.limit = limit;
  }

  push(chunk: Uint8Array): void {
    const room = this.limit - this.kept;
    if (room >= chunk.length) {
      this.chunks.push(chunk);
      this.kept += chunk.length;
      return;
    }
    if (room > 0) {
      this.chunks.push(chunk.subarray(0, room));
      this.kept += room;
    }
    this.dropped += chunk.length - Math.max(room, 0);
  }

  get truncated(): boolean {
    return this.dropped > 0;
  }

  get bytesSeen(): number {
    return this.kept + this.dropped;
  }

  get bytesKept(): number {
    return this.kept;
  }

  text(): string {
    const all = new Uint8Array(this.kept);
    let at = 0;
    for (const c of this.chunks) {
      all.set(c, at);
      at += c.length;
    }
    return new TextDecoder().decode(all.subarray(0, this.truncated ? utf8Boundary(all) : all.length));
  }
}

/**
 * Keeps the first and the last bytes of a stream (a test run's failures are at its end), counting
 * what falls in between; memory stays bounded however much the process writes.
 */
export class HeadTailOutput {
  private readonly head: CappedOutput;
  private readonly tailLimit: number;
  private tail: Uint8Array[] = [];
  private tailBytes = 0;
  private seen = 0;

  constructor(headBytes: number, tailBytes: number) {
    this.head = new CappedOutput(headBytes);
    this.tailLimit = tailBytes;
  }

  push(chunk: Uint8Array): void {
    this.seen += chunk.length;
    const before = this.head.bytesKept;
    this.head.push(chunk);
    const rest = chunk.subarray(this.head.bytesKept - before);
    if (!rest.length) return;
    this.tail.push(rest);
    this.tailBytes += rest.length;
    while (this.tail.length > 1 && this.tailBytes - this.tail[0]!.length >= this.tailLimit) this.tailBytes -= this.tail.shift()!.length;
  }

  get bytesSeen(): number {
    return this.seen;
  }

  get truncated(): boolean {
    return this.seen > this.head.bytesKept + this.tailBytesKept();
  }

  private tailBytesKept(): number {
    return Math.min(this.tailBytes, this.tailLimit);
  }

  text(): string {
    const head = this.head.text();
    if (!this.tail.length) return head;
    const all = new Uint8Array(this.tailBytes);
    let at = 0;
    for (const c of this.tail) {
      all.set(c, at);
      at += c.length;
    }
    // Never start inside a multi-byte character.
    const start = utf8Start(all, Math.max(0, all.length - this.tailLimit));
    const dropped = this.seen - this.head.bytesKept - (all.length - start);
    const tail = new TextDecoder().decode(all.subarray(start));
    return dropped > 0 ? `${head}\n…[${dropped} bytes omitted]…\n${tail}` : head + tail;
  }
}
