import { postmortems, postmortemTemplates, type Queryable } from '@firebreak/db';

/**
 * Gives an incident its document before an AI draft is asked for: the default template's text, written
 * by nobody (`content_source: template`), so the draft will fill it and GET has something to show while
 * it is pending. An incident that has one keeps it.
 */
export async function ensurePostmortemDocument(tx: Queryable, incidentId: string, at: Date): Promise<void> {
  if (await postmortems.findPostmortem(tx, incidentId)) return;
  const template = await postmortemTemplates.findDefaultTemplate(tx);
  await postmortems.insertPostmortem(tx, {
    incidentId,
    status: 'draft',
    content: template?.content ?? '',
    templateId: template?.id ?? null,
    contentSource: 'template',
    updatedBy: null,
    at,
  });
}
