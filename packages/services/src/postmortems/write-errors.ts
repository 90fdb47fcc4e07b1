import { AppError } from '@firebreak/schema';

/**
 * The database's refusals a client can cause by racing another request, as the API's answers rather
 * than 500s. Checking first (a free template name, an existing owner or template) and then writing
 * still races; the constraint is the one place that cannot, so its refusal is the answer:
 * - a unique name taken, or the default claimed at the same moment (SQLSTATE 23505): 409 `conflict`;
 * - a user or template deleted between the check and the write (23503): 400 `validation_failed` on the
 *   field that named it, as if the check had seen it gone.
 */
const conflicts: Record<string, string> = {
  postmortem_templates_name_key: 'A post-mortem template with this name already exists.',
  postmortem_templates_one_default_idx:
    'Another template was made the default at the same time; reload the templates and try again.',
};
const vanished: Record<string, { path: string; message: string }> = {
  postmortem_action_items_owner_id_fkey: { path: 'owner_id', message: 'no user has this id' },
  postmortems_template_id_fkey: { path: 'template_id', message: 'no post-mortem template has this id' },
};

export async function refusingWriteErrors<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    const { code, constraint_name } = (error ?? {}) as { code?: unknown; constraint_name?: unknown };
    const constraint = typeof constraint_name === 'string' ? constraint_name : '';
    if (code === '23505' && conflicts[constraint]) throw new AppError('conflict', conflicts[constraint]);
    if (code === '23503' && vanished[constraint]) {
      throw new AppError('validation_failed', 'The request is not valid.', [vanished[constraint]]);
    }
    throw error;
  }
}
