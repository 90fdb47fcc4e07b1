import type { Queryable } from './client';

export interface PostmortemTemplateRow {
  id: string;
  name: string;
  content: string;
  is_default: boolean;
  created_at: Date;
  updated_at: Date;
}

/** The default first, then by name. */
export async function listTemplates(sql: Queryable): Promise<PostmortemTemplateRow[]> {
  return sql<PostmortemTemplateRow[]>`
    select * from postmortem_templates order by is_default desc, name, id`;
}

export async function findTemplate(sql: Queryable, id: string): Promise<PostmortemTemplateRow | undefined> {
  const [row] = await sql<PostmortemTemplateRow[]>`select * from postmortem_templates where id = ${id}`;
  return row;
}

export async function findDefaultTemplate(sql: Queryable): Promise<PostmortemTemplateRow | undefined> {
  const [row] = await sql<PostmortemTemplateRow[]>`select * from postmortem_templates where is_default`;
  return row;
}

/** Locked for a change, so two admins naming a default at once end with exactly one. */
export async function lockTemplate(sql: Queryable, id: string): Promise<PostmortemTemplateRow | undefined> {
  const [row] = await sql<PostmortemTemplateRow[]>`
    select * from postmortem_templates where id = ${id} for update`;
  return row;
}

/** Whether another template already has this name (names are unique). */
export async function templateNameTaken(
  sql: Queryable,
  name: string,
  exceptId: string | null,
): Promise<boolean> {
  const [row] = await sql<{ taken: boolean }[]>`
    select exists (select 1 from postmortem_templates
                   where name = ${name} and id is distinct from ${exceptId}) as taken`;
  return row!.taken;
}

/**
 * The default stops being one, ahead of naming another in the same transaction (the unique index allows
 * one). Locks the current default first, so concurrent changes of the default queue up here.
 */
export async function clearDefaultTemplate(sql: Queryable, at: Date): Promise<void> {
  await sql`select id from postmortem_templates where is_default for update`;
  await sql`update postmortem_templates set is_default = false, updated_at = ${at} where is_default`;
}

export async function insertTemplate(
  sql: Queryable,
  template: { name: string; content: string; isDefault: boolean; at: Date },
): Promise<PostmortemTemplateRow> {
  const [row] = await sql<PostmortemTemplateRow[]>`
    insert into postmortem_templates (name, content, is_default, created_at, updated_at)
    values (${template.name}, ${template.content}, ${template.isDefault}, ${template.at}, ${template.at})
    returning *`;
  return row!;
}

export async function updateTemplate(
  sql: Queryable,
  id: string,
  changes: { name: string; content: string; isDefault: boolean; at: Date },
): Promise<PostmortemTemplateRow> {
  const [row] = await sql<PostmortemTemplateRow[]>`
    update postmortem_templates
    set name = ${changes.name}, content = ${changes.content}, is_default = ${changes.isDefault},
        updated_at = ${changes.at}
    where id = ${id} returning *`;
  return row!;
}

export async function deleteTemplate(sql: Queryable, id: string): Promise<void> {
  await sql`delete from postmortem_templates where id = ${id}`;
}
