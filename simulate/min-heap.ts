// The min-heap both load generators merge their sessions through (tj-generator.ts, load-test.ts): each session is a
// lane, and the lane whose next event ends first is at the top. Written here, not taken from a package: two
// functions over an array, and the generators keep their lanes in place between calls.

/** Moves `heap[i]` down until neither child comes `before` it. */
export function siftDown<T>(heap: T[], i: number, before: (a: T, b: T) => boolean): void {
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    if (l < heap.length && before(heap[l] as T, heap[m] as T)) m = l;
    if (r < heap.length && before(heap[r] as T, heap[m] as T)) m = r;
    if (m === i) return;
    [heap[i], heap[m]] = [heap[m] as T, heap[i] as T];
    i = m;
  }
}

/** Orders an array into a heap in place. */
export function heapify<T>(heap: T[], before: (a: T, b: T) => boolean): void {
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(heap, i, before);
}
