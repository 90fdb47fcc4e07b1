import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IncidentContext } from '@firebreak/services';

/**
 * Prompts are files (apps/worker/prompts/*.md) with `{{placeholders}}`, filled only from the data of
 * the request at hand. Input is bounded: every entry is clipped, and a long timeline is condensed in
 * windows first (see `timelineWindows`), so a huge incident cannot blow the context or the bill.
 */

const here = dirname(fileURLToPath(import.meta.url));
// Beside a production bundle (dist/prompts), else the app's own folder.
const promptsDir = existsSync(join(here, 'prompts'))
  ? join(here, 'prompts')
  : join(here, '..', '..', 'prompts');

export type PromptName = 'summary' | 'postmortem' | 'handoff' | 'timeline-window' | 'chat-answer';

export function fillPrompt(name: PromptName, values: Record<string, string>): string {
  const template = readFileSync(join(promptsDir, `${name}.md`), 'utf8');
  return template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => values[key] ?? '');
}

export const SYSTEM = 'You are an incident-response assistant. You only state facts present in the input.';

const ENTRY_CHARS = 400;
/** Timelines up to this many entries go into one prompt; longer ones are condensed in windows. */
export const ENTRIES_PER_PROMPT = 120;

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

export function describeIncident(context: IncidentContext): string {
  const i = context.incident;
  return [
    `INC-${i.number}: ${clip(i.title, 300)}`,
    `Severity: ${i.severity}. Status: ${i.status}. Source: ${i.source}.`,
    `Opened: ${i.created_at.toISOString()}.` +
      (i.acknowledged_at ? ` Acknowledged: ${i.acknowledged_at.toISOString()}.` : '') +
      (i.resolved_at ? ` Resolved: ${i.resolved_at.toISOString()} (MTTR ${i.mttr_seconds} s).` : ''),
    i.commander_name ? `Commander: ${i.commander_name}.` : 'Commander: none.',
    i.description ? `Description: ${clip(i.description, 1500)}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

export function describeAlerts(context: IncidentContext): string {
  if (context.alerts.length === 0) return 'None.';
  return context.alerts
    .slice(0, 50)
    .map((a) => {
      const labels = Object.entries(a.labels)
        .slice(0, 10)
        .map(([k, v]) => `${k}=${clip(v, 80)}`)
        .join(', ');
      return `- ${clip(a.title, 200)} (${a.severity}, ${a.status}, source ${a.source ?? 'unknown'}${labels ? `; ${labels}` : ''})`;
    })
    .join('\n');
}

/** The post-mortem's sections as the prompt lists them: one `## ` heading a line, in order. */
export function describeSections(sections: string[]): string {
  return sections.map((section) => `## ${clip(section, 120)}`).join('\n');
}

/** Each entry with a label ([E1]…) the model cites; the label maps back to the entry's id. */
export function labelEntries(context: IncidentContext): Array<{ label: string; id: string; line: string }> {
  return context.entries.map((entry, index) => {
    const label = `E${index + 1}`;
    const who = entry.actor_name ?? entry.actor_type;
    const data = clip(JSON.stringify(entry.data), ENTRY_CHARS);
    return {
      label,
      id: entry.id,
      line: `[${label}] ${entry.created_at.toISOString()} ${entry.type} by ${who}: ${data}`,
    };
  });
}

/** Splits long timelines into windows to condense separately; short ones stay whole. */
export function timelineWindows<T>(lines: T[]): T[][] {
  if (lines.length <= ENTRIES_PER_PROMPT) return [lines];
  const windows: T[][] = [];
  for (let i = 0; i < lines.length; i += ENTRIES_PER_PROMPT)
    windows.push(lines.slice(i, i + ENTRIES_PER_PROMPT));
  return windows;
}

/** The entries a text cites, as entry ids, in order of first citation. */
export function citedEntries(text: string, labelled: Array<{ label: string; id: string }>): string[] {
  const byLabel = new Map(labelled.map((entry) => [entry.label, entry.id]));
  const ids: string[] = [];
  for (const match of text.matchAll(/\[(E\d+)\]/g)) {
    const id = byLabel.get(match[1]!);
    if (id && !ids.includes(id)) ids.push(id);
  }
  return ids;
}
