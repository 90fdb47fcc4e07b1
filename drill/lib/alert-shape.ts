import type { ParseResult } from '@firebreak/domain';
import { type AlertInput, AppError, alertLimits, alertSeverities, alertStatuses } from '@firebreak/schema';

/** What is wrong with an alert a parser accepted (empty: it satisfies the alert schema's bounds). */
export function alertProblems(alert: AlertInput): string[] {
  const problems: string[] = [];
  const isDate = (value: unknown) => value instanceof Date && !Number.isNaN(value.getTime());
  if (typeof alert.title !== 'string' || alert.title.trim() === '') problems.push('empty title');
  else if (alert.title.length > alertLimits.titleLength) problems.push('title too long');
  if (!alertSeverities.includes(alert.severity)) problems.push(`severity ${String(alert.severity)}`);
  if (!alertStatuses.includes(alert.status)) problems.push(`status ${String(alert.status)}`);
  if (!isDate(alert.startedAt)) problems.push('started_at not a date');
  if (alert.status === 'firing' ? alert.endedAt !== null : alert.endedAt !== null && !isDate(alert.endedAt))
    problems.push('ended_at does not fit the status');
  const labels = Object.entries(alert.labels ?? {});
  if (labels.length > alertLimits.entries) problems.push('too many labels');
  if (labels.some(([, value]) => typeof value !== 'string'))
    problems.push('a label value that is not a string');
  if ((alert.externalId?.length ?? 0) > alertLimits.externalIdLength) problems.push('external_id too long');
  return problems;
}

/**
 * Runs a parser and says what is wrong with its result: a parser may reject (with problems) or accept
 * (alerts that satisfy the schema); throwing is allowed only as the typed validation error.
 */
export function parserViolation(parse: () => ParseResult): string | undefined {
  let result: ParseResult;
  try {
    result = parse();
  } catch (error) {
    if (error instanceof AppError && error.code === 'validation_failed') return undefined;
    return `threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
  }
  if (!result.ok) return result.problems.length > 0 ? undefined : 'rejected without saying why';
  const problems = result.alerts.flatMap(alertProblems);
  return problems.length > 0 ? `accepted a bad alert: ${problems.join(', ')}` : undefined;
}
