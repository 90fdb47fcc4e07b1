import { describe, expect, it } from 'vitest';
import { wantsAutoDraft } from './auto-draft';
import { templateSections, unclosedFence } from './sections';

describe('templateSections', () => {
  it('reads the `## ` headings in order, once each, outside code blocks', () => {
    const text = [
      '# Title',
      '## Summary',
      'text',
      '### Detail',
      '```',
      '## Not a section',
      '```',
      '## Root cause ##',
      '##Missing space',
      '## Summary',
    ].join('\n');
    expect(templateSections(text)).toEqual(['Summary', 'Root cause']);
    expect(templateSections('No headings at all.')).toEqual([]);
  });
});

describe('unclosedFence', () => {
  it('names the fence of a code block left open, closed only by the same character, as many or more', () => {
    expect(unclosedFence('text\n```ts\ncode\n```\nafter')).toBeNull();
    expect(unclosedFence('text\n```ts\ncode')).toBe('```');
    expect(unclosedFence('~~~~\n```\n~~~\nstill code')).toBe('~~~~');
    expect(unclosedFence('````\ncode\n`````')).toBeNull();
    expect(unclosedFence('No code at all.')).toBeNull();
  });
});

describe('wantsAutoDraft', () => {
  const opened = new Date('2026-11-25T10:00:00Z');
  const minutesLater = (minutes: number) => new Date(opened.getTime() + minutes * 60_000);

  it('drafts incidents that lasted at least the setting, every one at 0, none at null', () => {
    expect(wantsAutoDraft({ postmortem_auto_draft_min_minutes: 30 }, opened, minutesLater(29))).toBe(false);
    expect(wantsAutoDraft({ postmortem_auto_draft_min_minutes: 30 }, opened, minutesLater(30))).toBe(true);
    expect(wantsAutoDraft({ postmortem_auto_draft_min_minutes: 0 }, opened, opened)).toBe(true);
    expect(wantsAutoDraft({ postmortem_auto_draft_min_minutes: null }, opened, minutesLater(10_000))).toBe(
      false,
    );
  });
});
