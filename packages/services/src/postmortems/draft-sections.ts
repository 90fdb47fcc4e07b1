import { postmortems, postmortemTemplates } from '@firebreak/db';
import type { ServiceContext } from '../context';
import { templateSections } from './sections';

/** The shipped default's sections, for an installation whose templates have no `## ` headings at all. */
const blamelessSections = [
  'Summary',
  'Impact',
  'Timeline',
  'Root cause',
  'What went well',
  'What went wrong',
  'Action items',
  'Lessons learned',
];

/**
 * The sections an AI draft of this incident's post-mortem must fill (docs/postmortems.md#ai-drafts): its
 * document's template's, else the headings of the document itself, else the default template's.
 */
export async function loadPostmortemSections(ctx: ServiceContext, incidentId: string): Promise<string[]> {
  const doc = await postmortems.findPostmortem(ctx.sql, incidentId);
  const template = doc?.template_id
    ? await postmortemTemplates.findTemplate(ctx.sql, doc.template_id)
    : undefined;
  const fallback = await postmortemTemplates.findDefaultTemplate(ctx.sql);
  for (const text of [template?.content, doc?.content, fallback?.content]) {
    const sections = text ? templateSections(text) : [];
    if (sections.length > 0) return sections;
  }
  return blamelessSections;
}
