import type { ComponentStatus } from '@firebreak/schema';
import type { ComponentInput, StatusComponent } from '../../lib/api-status-page';

/** The status page's words for a component status (the public page uses the same). */
export const componentStatusLabel: Record<ComponentStatus, string> = {
  operational: 'Operational',
  degraded: 'Degraded performance',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
};
export const componentStatusOptions = Object.keys(componentStatusLabel) as ComponentStatus[];

export interface ComponentForm {
  name: string;
  group: string;
  /** One `name=value` label per line. */
  match: string;
  position: string;
  /** '' follows the incidents automatically. */
  status: ComponentStatus | '';
}

export function emptyComponentForm(): ComponentForm {
  return { name: '', group: '', match: '', position: '', status: '' };
}

export function formOfComponent(component: StatusComponent): ComponentForm {
  return {
    name: component.name,
    group: component.group ?? '',
    match: Object.entries(component.match)
      .map(([name, value]) => `${name}=${value}`)
      .join('\n'),
    position: String(component.position),
    status: component.status ?? '',
  };
}

/**
 * `name=value` lines into labels; a line without a name, or a name given twice, is refused. A Map, not
 * an object, collects them: a label may well be named `constructor` or `__proto__`, which an object
 * would take for its own machinery.
 */
export function parseMatch(text: string): { labels: Record<string, string> } | { error: string } {
  const labels = new Map<string, string>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const at = line.indexOf('=');
    const name = at < 0 ? '' : line.slice(0, at).trim();
    if (!name) return { error: `“${line}” is not a label: write name=value.` };
    if (labels.has(name)) return { error: `The label “${name}” is given twice.` };
    labels.set(name, line.slice(at + 1).trim());
  }
  if (labels.size === 0) return { error: 'Give at least one label, as name=value.' };
  // fromEntries defines own properties, `__proto__` included, so every label reaches the JSON.
  return { labels: Object.fromEntries(labels) };
}

export function componentInputOf(form: ComponentForm): { input: ComponentInput } | { error: string } {
  const match = parseMatch(form.match);
  if ('error' in match) return match;
  const position = form.position.trim();
  if (position && !/^-?\d+$/.test(position)) return { error: 'The position is a whole number.' };
  return {
    input: {
      name: form.name.trim(),
      group: form.group.trim() || null,
      match: match.labels,
      ...(position ? { position: Number(position) } : {}),
      status: form.status || null,
    },
  };
}
