// axe-core in the page the test is looking at, with the WCAG 2.1 A and AA rules. A failure lists
// every violation as rule id, impact, the elements' selectors and the fix axe suggests, so the
// message alone says what to change.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

type Violation = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

function describe(violation: Violation): string {
  const targets = violation.nodes.map((node) => {
    const why = node.failureSummary?.split('\n').slice(1).join(' ').trim();
    return `    ${node.target.join(' ')}${why ? ` — ${why}` : ''}`;
  });
  return [
    `  ${violation.id} (${violation.impact ?? 'no impact given'}): ${violation.help}`,
    `    ${violation.helpUrl}`,
    ...targets,
  ].join('\n');
}

/** Throws, naming every WCAG 2.1 A/AA violation on the page as it is now. */
export async function expectNoAxeViolations(page: Page, where: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
  if (violations.length === 0) return;
  throw new Error(
    `${violations.length} accessibility violation(s) on ${where}:\n${violations.map(describe).join('\n')}`,
  );
}
