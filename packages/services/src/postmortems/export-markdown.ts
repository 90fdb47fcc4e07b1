import { actionItems, type incidents, postmortems } from '@firebreak/db';
import type { ServiceContext } from '../context';
import { requireIncident } from './incident';
import { postmortemNotFound } from './read';
import { unclosedFence } from './sections';

const statusWords = { draft: 'Draft', in_review: 'In review', published: 'Published' } as const;

/**
 * `GET /api/v1/incidents/{id}/postmortem.md`: one file to paste into a wiki or attach to a ticket — a
 * title line, the status, the document as written, and the action items as a checklist.
 */
export async function exportPostmortemMarkdown(
  ctx: ServiceContext,
  ref: incidents.IncidentRef,
): Promise<{ filename: string; markdown: string }> {
  const incident = await requireIncident(ctx.sql, ref);
  const [doc, items] = await Promise.all([
    postmortems.findPostmortem(ctx.sql, incident.id),
    actionItems.listIncidentActionItems(ctx.sql, incident.id),
  ]);
  if (!doc) throw postmortemNotFound(incident.number);
  const checklist = items.map((item) => {
    const notes = [
      item.owner_name ? `owner: ${inlineText(item.owner_name)}` : '',
      item.due_date ? `due ${item.due_date}` : '',
    ]
      .filter(Boolean)
      .join(', ');
    return `- [${item.status === 'done' ? 'x' : ' '}] ${inlineText(item.title)}${notes ? ` (${notes})` : ''}`;
  });
  const text = doc.content.trim();
  // A code block the text leaves open would swallow the checklist: close it with the fence that opened it.
  const fence = unclosedFence(text);
  const markdown = [
    `# Post-mortem: INC-${incident.number} ${inlineText(incident.title)}`,
    '',
    `Status: ${statusWords[doc.status]} · version ${doc.version} · updated ${doc.updated_at.toISOString()}`,
    '',
    ...(fence ? [text, fence] : [text]),
    '',
    '## Tracked action items',
    '',
    ...(checklist.length > 0 ? checklist : ['None recorded.']),
    '',
  ].join('\n');
  return { filename: `incident-${incident.number}-postmortem.md`, markdown };
}

/**
 * A title or name as inline text: on one line (a newline would start a new Markdown block), and with
 * `<`, `>` and `&` escaped. Incident titles come from alert senders outside the team, and a wiki that
 * renders HTML in Markdown must not run a `<script>` one of them sent.
 */
function inlineText(text: string): string {
  return text
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .trim()
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}
