/**
 * Two sessions sharing a partition (two runners on one `--cache`, a runner and a pane's persistence, two panes of one
 * user) each hold what they loaded plus what they fetched; a save merges with what the other saved meanwhile rather
 * than replacing it. Per key the line stored last wins; a key this session dropped on purpose (it failed the checks,
 * or its instrument was withdrawn) is not brought back; lines only the other holds go first (older use), and the byte
 * bound then drops from the front, least recently used first.
 */
import { readHead, utf8Length } from "./stored-line";

export function mergeLines(ours: readonly string[], theirs: readonly string[], dropped: ReadonlySet<string>, maxBytes: number): string[] {
  const mine = new Map<string, { line: string; storedAt: number }>();
  for (const line of ours) {
    const head = readHead(line);
    if (head) mine.set(head.id, { line, storedAt: head.storedAt });
  }
  const merged: string[] = [];
  for (const line of theirs) {
    const head = readHead(line);
    if (!head || dropped.has(head.id)) continue;
    const own = mine.get(head.id);
    if (own === undefined) merged.push(line);
    else if (head.storedAt > own.storedAt) own.line = line;
  }
  for (const { line } of mine.values()) merged.push(line);
  let total = 0;
  for (const line of merged) total += utf8Length(line) + 1;
  let first = 0;
  while (total > maxBytes && first < merged.length) {
    total -= utf8Length(merged[first] ?? "") + 1;
    first += 1;
  }
  return first === 0 ? merged : merged.slice(first);
}
