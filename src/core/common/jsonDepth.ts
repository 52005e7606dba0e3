// JSON.parse copes with any depth but JSON.stringify and every recursive walk overflow at a few thousand
// levels, so parsed JSON is pruned at the edge, iteratively, and nothing downstream meets such a depth.

/** Far deeper than any real event; deep enough that nothing a person reads is cut. */
export const MAX_JSON_DEPTH = 64;

export const TOO_DEEP = '[nested too deeply to show]';

/** The depth of a parsed JSON value (a scalar is 0, `[]` and `{}` are 1); stops counting above `limit`. */
export function jsonDepth(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (typeof current !== 'object' || current === null) continue;
    const level = depth + 1;
    deepest = Math.max(deepest, level);
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      // Only containers go on the stack: half the time on a page of events.
      if (typeof child === 'object' && child !== null) stack.push([child, level]);
    }
  }
  return deepest;
}

export function pruneDeepJson(value: unknown, maxDepth = MAX_JSON_DEPTH): unknown {
  if (jsonDepth(value, maxDepth) <= maxDepth) return value;
  const root: { value?: unknown } = {};
  // Each entry: the source value, its depth, and where its copy goes.
  const stack: [unknown, number, (copy: unknown) => void][] = [[value, 1, (copy) => (root.value = copy)]];
  while (stack.length > 0) {
    const [source, depth, place] = stack.pop() as [unknown, number, (copy: unknown) => void];
    if (typeof source !== 'object' || source === null) {
      place(source);
    } else if (depth > maxDepth) {
      place(TOO_DEEP);
    } else if (Array.isArray(source)) {
      // Filled index by index below, every index of a parsed JSON array (it has no holes).
      const copy: unknown[] = [];
      place(copy);
      source.forEach((child, index) => stack.push([child, depth + 1, (c) => (copy[index] = c)]));
    } else {
      const copy: Record<string, unknown> = {};
      place(copy);
      for (const [key, child] of Object.entries(source)) stack.push([child, depth + 1, (c) => (copy[key] = c)]);
    }
  }
  return root.value;
}
