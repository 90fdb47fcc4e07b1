import type { OnCallEscalationStepItem } from '@firebreak/schema';
import type { PlannedPerson, PlannedTier } from './types';
import type { People } from './users';

/**
 * Escalation steps → tiers (docs/import-oncall.md#what-is-imported-and-how). Steps that notify people or a
 * schedule become tiers; `wait` steps become the timeout of the tier before them; every other step is skipped
 * with a warning, since this service has no equivalent for it.
 */

export const DEFAULT_TIMEOUT_SECONDS = 300;

export interface StepContext {
  people: People;
  /** OnCall schedule id → name of the schedule this import creates from it. */
  schedules: ReadonlyMap<string, string>;
}

export interface TierPlan {
  tiers: PlannedTier[];
  /** Warning messages about the policy's steps. */
  notes: string[];
}

interface OpenTier {
  tier: Omit<PlannedTier, 'timeoutSeconds'>;
  waited: number;
  ownDuration: number;
}

/** The waits after the step, else the step's own duration, else 300 s. */
export function timeoutOf(open: { waited: number; ownDuration: number }): number {
  if (open.waited > 0) return open.waited;
  return open.ownDuration > 0 ? open.ownDuration : DEFAULT_TIMEOUT_SECONDS;
}

/** In `position` order; positions may have gaps (OnCall hides some step types). */
export function orderSteps(steps: readonly OnCallEscalationStepItem[]): OnCallEscalationStepItem[] {
  return steps
    .map((step, index) => ({ step, index }))
    .sort((a, b) => a.step.position - b.step.position || a.index - b.index)
    .map(({ step }) => step);
}

/** Users that resolve, each once; the rest are named in `dropped`. */
export function resolveStepUsers(
  ids: readonly string[],
  people: People,
): { users: PlannedPerson[]; dropped: string[] } {
  const users: PlannedPerson[] = [];
  const dropped: string[] = [];
  for (const id of new Set(ids)) {
    const person = people.get(id);
    if (!person) dropped.push(id);
    else if (!users.some((u) => u.email === person.email)) users.push(person);
  }
  return { users, dropped };
}

export function stepsToTiers(steps: readonly OnCallEscalationStepItem[], context: StepContext): TierPlan {
  const open: OpenTier[] = [];
  const notes: string[] = [];
  for (const step of orderSteps(steps)) {
    const label = `position ${step.position}: ${step.type ?? 'empty step'}`;
    const ownDuration = step.duration ?? 0;
    switch (step.type) {
      case 'wait': {
        const last = open.at(-1);
        if (!last) notes.push(`${label}: wait before the first notification ignored`);
        else if (!step.duration) notes.push(`${label}: wait without a duration ignored`);
        else last.waited += step.duration;
        break;
      }
      case 'notify_persons':
      case 'notify_person_next_each_time': {
        const ids =
          (step.type === 'notify_persons' ? step.persons_to_notify : step.persons_to_notify_next_each_time) ??
          [];
        const { users, dropped } = resolveStepUsers(ids, context.people);
        for (const id of dropped) notes.push(`${label}: user ${id} is not an imported user; dropped`);
        if (users.length === 0) notes.push(`${label}: no user could be resolved; step skipped`);
        else open.push({ tier: { targetType: 'users', users, schedule: null }, waited: 0, ownDuration });
        break;
      }
      case 'notify_on_call_from_schedule': {
        const sourceId = step.notify_on_call_from_schedule;
        const name = sourceId ? context.schedules.get(sourceId) : undefined;
        if (!sourceId || name === undefined) {
          notes.push(`${label}: schedule ${sourceId ?? '(deleted)'} was not imported; step skipped`);
        } else {
          open.push({
            tier: { targetType: 'schedule', users: [], schedule: { sourceId, name } },
            waited: 0,
            ownDuration,
          });
        }
        break;
      }
      case 'repeat_escalation':
        notes.push(`${label}: step type not imported; set the policy's repeat to page again`);
        break;
      default:
        notes.push(`${label}: step type not imported`);
    }
  }
  return { tiers: open.map((o) => ({ ...o.tier, timeoutSeconds: timeoutOf(o) })), notes };
}
