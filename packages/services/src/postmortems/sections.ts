/**
 * The sections of a template or document: its `## ` headings, in order (docs/postmortems.md#templates).
 * An AI draft answers in exactly these, so it drops into the document people already know.
 */
export function templateSections(content: string): string[] {
  const sections: string[] = [];
  for (const { line, fenced } of linesWithFences(content)) {
    // A heading inside a code block is text, not a section.
    const heading = !fenced && /^## +(.+?)\s*#*\s*$/.exec(line);
    if (heading && !sections.includes(heading[1]!)) sections.push(heading[1]!);
  }
  return sections;
}

/**
 * The fence of a code block the text leaves open at its end (e.g. "```"), else null. Whatever is
 * appended after such a text would be read as code, so the export closes it first.
 */
export function unclosedFence(content: string): string | null {
  let open: string | null = null;
  for (const step of linesWithFences(content)) open = step.fence;
  return open;
}

/**
 * Each line with whether it is inside a fenced code block (the fence lines count as inside) and the
 * fence open after it. A block opens with ``` or ~~~ and closes with the same character, as many or more.
 */
function* linesWithFences(
  content: string,
): Generator<{ line: string; fenced: boolean; fence: string | null }> {
  let fence: string | null = null;
  for (const line of content.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    const fenced = fence !== null || marker !== undefined;
    if (marker && fence === null) fence = marker;
    else if (marker && fence !== null && marker[0] === fence[0] && marker.length >= fence.length)
      fence = null;
    yield { line, fenced, fence };
  }
}
