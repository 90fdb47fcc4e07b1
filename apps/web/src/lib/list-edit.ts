// Ordered lists a form edits in place: layers, participants, tiers, notification rules. Pure, so the
// editors share one tested definition of "move up" instead of each writing its own index arithmetic.

/** The list with the item at `index` moved by `delta` places; unchanged when that leaves the list. */
export function moveItem<T>(list: readonly T[], index: number, delta: number): T[] {
  const target = index + delta;
  if (index < 0 || index >= list.length || target < 0 || target >= list.length) return [...list];
  const copy = [...list];
  const [item] = copy.splice(index, 1);
  copy.splice(target, 0, item as T);
  return copy;
}

export function removeAt<T>(list: readonly T[], index: number): T[] {
  return list.filter((_, i) => i !== index);
}

export function replaceAt<T>(list: readonly T[], index: number, item: T): T[] {
  return list.map((existing, i) => (i === index ? item : existing));
}

let counter = 0;
/**
 * A React key for a row the form created: a row's position changes when it moves, so the position
 * cannot be its key without React handing one row's typed text to another.
 */
export function rowKey(): string {
  counter += 1;
  return `row-${counter}`;
}
