// Big arrays (scratch space, file contents) that do not leave the process holding memory it freed.
// glibc serves a block of 128 KiB or more with mmap and, when such a block of up to 32 MiB is freed,
// raises its mmap threshold to that block's size and its trim threshold to twice that (its "dynamic
// threshold"): from then on smaller blocks come from its heaps, and up to twice as much free memory at
// a heap's top is kept rather than given back. The text stage's arrays of 4-17 MB, grown and dropped,
// and its reads of files of several MB (each copied once more) raised it to ~17 MB within the first
// segments (seen with an LD_PRELOAD hook on free()), and the build kept ~100 MB more of freed memory
// than with the threshold fixed (`drivers/gpu/drm/amd`: peak RSS 460-477 MB against 348-360 MB with
// `MALLOC_MMAP_THRESHOLD_` or `MALLOC_TRIM_THRESHOLD_` set, 363 MB with a 1 MiB threshold, 396 MB
// with 4 MiB). An array above 1 MiB is therefore given at least 33 MiB: glibc maps it, its free leaves
// the thresholds alone, and pages never written cost no memory (the kernel maps them on first touch).
// Other runtimes' allocators lose nothing by it but address space.

/** Arrays up to this many bytes are allocated as asked (a free raises the threshold to 1 MiB at most). */
export const SMALL_BYTES = 1 << 20;
/** Above the largest block whose free moves glibc's thresholds (32 MiB on 64-bit). */
const UNTRACKED_BYTES = 33 * 1024 * 1024;

interface TypedArrayOf<T> {
  new (length: number): T;
  readonly BYTES_PER_ELEMENT: number;
}

/**
 * A zero-filled typed array of at least `length` elements: exactly that up to 1 MiB, else at least
 * 33 MiB of which only the pages written become resident. Its `length` may exceed what was asked.
 */
export function scratchArray<T>(type: TypedArrayOf<T>, length: number): T {
  const bytes = length * type.BYTES_PER_ELEMENT;
  if (bytes <= SMALL_BYTES) return new type(length);
  return new type(Math.max(length, Math.ceil(UNTRACKED_BYTES / type.BYTES_PER_ELEMENT)));
}
