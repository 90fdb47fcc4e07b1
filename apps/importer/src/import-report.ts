import type { ImportResult } from '@firebreak/schema';
import { formatDuration, formatTable } from './table';

/** The human-readable report of every `firebreak-import <source>` (without `--json`): one answer shape. */
export function renderImportReport(answer: ImportResult, source: string): string {
  const sections = [
    answer.dry_run ? `${source} import: DRY RUN, nothing was written.` : `${source} import: done.`,
    summary(answer),
    section('Users', answer.users.length, () =>
      formatTable(
        ['EMAIL', 'NAME', 'ROLE', 'SLACK'],
        answer.users.map((u) => [u.email, u.name, u.role, u.slack_user_id ?? '-']),
      ),
    ),
    section('Schedules', answer.schedules.length, () => schedules(answer)),
    section('Escalation policies', answer.escalation_policies.length, () => policies(answer)),
    section('Conflicts (skipped)', answer.conflicts.length, () =>
      formatTable(
        ['KIND', 'NAME', 'REASON'],
        answer.conflicts.map((c) => [c.kind, c.name, c.email ? `${c.reason} (${c.email})` : c.reason]),
      ),
    ),
    section('Warnings', answer.warnings.length, () =>
      formatTable(
        ['KIND', 'NAME', 'MESSAGE'],
        answer.warnings.map((w) => [w.kind, w.name, w.message]),
      ),
    ),
    section(
      'Integrations: point each sender at this webhook path of Firebreak',
      answer.integrations.length,
      () => integrations(answer),
    ),
    setupTokens(answer),
  ];
  return `${sections.filter((s) => s !== '').join('\n\n')}\n`;
}

function summary(answer: ImportResult): string {
  const { users, schedules, escalation_policies: policies, integrations: keyed } = answer.summary;
  const verb = answer.dry_run ? 'would create' : 'created';
  const rows = [
    ['users', String(users.created), String(users.skipped)],
    ['schedules', String(schedules.created), String(schedules.skipped)],
    ['escalation policies', String(policies.created), String(policies.skipped)],
  ];
  // Only importers that keep the source's keys create integrations; OnCall's report stays as it was.
  if (keyed.created + keyed.skipped > 0) {
    rows.push(['integrations', String(keyed.created), String(keyed.skipped)]);
  }
  return formatTable(['', verb.toUpperCase(), 'SKIPPED'], rows);
}

function integrations(answer: ImportResult): string {
  // Without a note the only pathless sender is OnCall's inbound e-mail; with one, the note says why.
  const path = (i: ImportResult['integrations'][number]) =>
    i.webhook_path ?? (i.note === null ? '(none: Firebreak receives no e-mail)' : '(none)');
  if (answer.integrations.every((i) => i.note === null && i.integration_id === null)) {
    return formatTable(
      ['NAME', 'TYPE', 'WEBHOOK PATH'],
      answer.integrations.map((i) => [i.name, i.type, path(i)]),
    );
  }
  return formatTable(
    ['NAME', 'TYPE', 'WEBHOOK PATH', 'CREATED', 'NOTE'],
    answer.integrations.map((i) => [i.name, i.type, path(i), i.integration_id ? 'yes' : '-', i.note ?? '']),
  );
}

function section(title: string, count: number, body: () => string): string {
  return count === 0 ? '' : `${title}\n${body()}`;
}

function schedules(answer: ImportResult): string {
  const rows = answer.schedules.flatMap((schedule) => {
    if (schedule.layers.length === 0)
      return [[schedule.name, schedule.timezone, '(no layers)', '', '', '', '']];
    return schedule.layers.map((layer, index) => [
      index === 0 ? schedule.name : '',
      index === 0 ? schedule.timezone : '',
      `${layer.order_index} ${layer.name}`,
      layer.rotation_type,
      formatDuration(layer.shift_duration_seconds),
      layer.rotation_start.replace('T', ' ').replace(/:00\.000Z$/, 'Z'),
      layer.participants.map((p) => p.name).join(', '),
    ]);
  });
  return formatTable(['SCHEDULE', 'TIME ZONE', 'LAYER', 'ROTATION', 'TURN', 'STARTS', 'PARTICIPANTS'], rows);
}

function policies(answer: ImportResult): string {
  const rows = answer.escalation_policies.flatMap((policy) => {
    if (policy.tiers.length === 0) return [[policy.name, '-', '(no tiers)', '']];
    return policy.tiers.map((tier, index) => [
      index === 0 ? policy.name : '',
      String(index + 1),
      tier.target_type === 'schedule' ? `on call in ${tier.schedule_name}` : tier.user_names.join(', '),
      formatDuration(tier.timeout_seconds),
    ]);
  });
  return formatTable(['POLICY', 'TIER', 'PAGES', 'TIMEOUT'], rows);
}

function setupTokens(answer: ImportResult): string {
  if (answer.setup_tokens.length === 0) return '';
  if (answer.dry_run) {
    return `Setup tokens: a real import issues one to each of the ${answer.setup_tokens.length} users it creates.`;
  }
  const intro =
    'Setup tokens, shown only now: give each user theirs. They set a password with\n' +
    'POST /api/v1/auth/setup {"token": "...", "password": "..."} within 7 days.';
  return `${intro}\n${formatTable(
    ['EMAIL', 'TOKEN'],
    answer.setup_tokens.map((t) => [t.email, t.token ?? '-']),
  )}`;
}
