/**
 * The first `count` items of `items` in the order `compare` gives, exactly as
 * `[...items].sort(compare).slice(0, count)` would give them, without sorting
 * the rest. A plan list sorts a county's ~500 plans to answer a page of 50:
 * a heap of the best `count` seen so far needs about a third of a full sort's
 * comparisons (decision 130).
 *
 * `compare` must be a strict total order over the items (no two distinct
 * items equal), as the plan sort is (ties end on plan id); then the result
 * does not depend on the input's order.
 */
export function firstInOrder<T>(items: readonly T[], count: number, compare: (a: T, b: T) => number): T[] {
  const k = Math.max(0, Math.min(Math.floor(count), items.length));
  // For a page that is most of the list, a plain sort is as quick.
  if (k * 2 >= items.length) return [...items].sort(compare).slice(0, k);
  // A max-heap of the best k so far: its root is the worst of them, the one a better item replaces.
  const heap: T[] = [];
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item);
      siftUp(heap, heap.length - 1, compare);
    } else if (k > 0 && compare(item, heap[0]) < 0) {
      heap[0] = item;
      siftDown(heap, 0, compare);
    }
  }
  return heap.sort(compare);
}

function siftUp<T>(heap: T[], at: number, compare: (a: T, b: T) => number): void {
  const item = heap[at];
  while (at > 0) {
    const parent = (at - 1) >> 1;
    if (compare(heap[parent], item) >= 0) break;
    heap[at] = heap[parent];
    at = parent;
  }
  heap[at] = item;
}

function siftDown<T>(heap: T[], at: number, compare: (a: T, b: T) => number): void {
  const item = heap[at];
  const size = heap.length;
  for (;;) {
    let child = 2 * at + 1;
    if (child >= size) break;
    if (child + 1 < size && compare(heap[child + 1], heap[child]) > 0) child++;
    if (compare(heap[child], item) <= 0) break;
    heap[at] = heap[child];
    at = child;
  }
  heap[at] = item;
}
