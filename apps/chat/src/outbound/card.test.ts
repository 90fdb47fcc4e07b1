import type { ChatIncident } from '@firebreak/services';
import { describe, expect, it } from 'vitest';
import { CARD_ACTIONS, cardDigest, channelPurpose, channelTopic, renderCard, resolvedTopic } from './card';
import { escapeMrkdwn, formatDuration } from './format';
import { pageText } from './messages';

const incident = (over: Partial<ChatIncident> = {}): ChatIncident => ({
  id: '00000000-0000-4000-8000-000000000042',
  number: 42,
  title: 'Database primary down',
  description: 'Replica <pg-2> lags & alerts',
  severity: 'critical',
  status: 'triggered',
  source: 'alert',
  commander_id: null,
  escalation_policy_id: null,
  routing_rule_id: null,
  opened_by_alert_id: null,
  chat_channel_id: 'C1',
  chat_channel_name: 'inc-42-database-primary-down',
  all_alerts_resolved: false,
  group_key: null,
  created_at: new Date('2026-05-04T11:22:20Z'),
  updated_at: new Date('2026-05-04T11:22:20Z'),
  acknowledged_at: null,
  resolved_at: null,
  mttr_seconds: null,
  chat_card_ts: null,
  chat_card_digest: null,
  chat_topic: null,
  chat_channel_creating: null,
  commander_name: null,
  commander_slack_user_id: null,
  commander_teams_user_id: null,
  alert_count: 2,
  next_tier: 2,
  storm_started_at: null,
  storm_last_absorbed_at: null,
  storm_absorbed_alerts: null,
  storm_calmed_at: null,
  ...over,
});

type Block = { type: string; elements?: Array<{ action_id: string }>; text?: { text: string } };
const blocks = (card: { blocks?: unknown[] }) => card.blocks as Block[];
const actionIds = (card: { blocks?: unknown[] }) =>
  blocks(card)
    .find((b) => b.type === 'actions')
    ?.elements?.map((e) => e.action_id) ?? [];

describe('incident card', () => {
  it('offers Acknowledge, Make me Lead, Escalate and Resolve while triggered, and escapes what people wrote', () => {
    const card = renderCard(incident(), 'https://fb.example');
    expect(card.text).toBe('INC-42 [CRITICAL] Database primary down — Triggered');
    expect(actionIds(card)).toEqual([
      CARD_ACTIONS.acknowledge,
      CARD_ACTIONS.lead,
      CARD_ACTIONS.escalate,
      CARD_ACTIONS.resolve,
    ]);
    expect(JSON.stringify(card)).toContain('Replica &lt;pg-2&gt; lags &amp; alerts');
    expect(JSON.stringify(card)).toContain('<https://fb.example/incidents/42|Open in Firebreak>');
    expect(JSON.stringify(card)).toContain('Alert (2 alerts)');
  });

  it('drops Acknowledge once acknowledged and every button once resolved', () => {
    const acknowledged = renderCard(incident({ status: 'acknowledged' }), 'https://fb.example');
    expect(actionIds(acknowledged)).toEqual([CARD_ACTIONS.lead, CARD_ACTIONS.escalate, CARD_ACTIONS.resolve]);
    const resolved = renderCard(incident({ status: 'resolved', mttr_seconds: 3720 }), 'https://fb.example');
    expect(actionIds(resolved)).toEqual([]);
    expect(blocks(resolved)[0]?.text?.text).toBe('✅ [RESOLVED] INC-42: Database primary down');
    expect(JSON.stringify(resolved)).toContain('Resolved in 1h 2m');
  });

  it('changes its digest exactly when what it shows changes', () => {
    const a = cardDigest(renderCard(incident(), 'https://fb.example'));
    expect(cardDigest(renderCard(incident({ updated_at: new Date() }), 'https://fb.example'))).toBe(a);
    expect(cardDigest(renderCard(incident({ severity: 'high' }), 'https://fb.example'))).not.toBe(a);
    // A step moves the tier the Escalate button names: the card is edited to name the next one.
    expect(cardDigest(renderCard(incident({ next_tier: 3 }), 'https://fb.example'))).not.toBe(a);
  });

  it('names the tier it shows as next in the Escalate button, so a second click pages nothing more', () => {
    type Button = { action_id: string; value: string };
    const escalateValueOf = (card: { blocks?: unknown[] }) => {
      const buttons = (blocks(card).find((b) => b.type === 'actions')?.elements ?? []) as Button[];
      return buttons.find((e) => e.action_id === CARD_ACTIONS.escalate)?.value;
    };
    expect(escalateValueOf(renderCard(incident(), 'https://fb.example'))).toBe(
      '00000000-0000-4000-8000-000000000042:2',
    );
    expect(escalateValueOf(renderCard(incident({ next_tier: null }), 'https://fb.example'))).toBe(
      '00000000-0000-4000-8000-000000000042',
    );
  });
});

describe('topic and purpose', () => {
  it('say title, severity and lead within 250 characters', () => {
    expect(channelTopic(incident({ commander_id: 'u', commander_name: 'Bob' }))).toBe(
      'INC-42: Database primary down · Critical · Lead: Bob',
    );
    const long = incident({ title: 'x'.repeat(400), description: 'y'.repeat(400) });
    expect(channelTopic(long).length).toBe(250);
    expect(channelTopic(long).endsWith('· Critical · Lead: unassigned')).toBe(true);
    expect(channelPurpose(long, 'https://fb.example').length).toBeLessThanOrEqual(250);
    expect(resolvedTopic('[RESOLVED] #inc-42-x', long).startsWith('[RESOLVED] #inc-42-x · xxx')).toBe(true);
    expect(resolvedTopic('[RESOLVED] #inc-42-x', long).length).toBe(250);
  });
});

describe('formatting', () => {
  it('writes durations with their two largest units', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(42)).toBe('42s');
    expect(formatDuration(3720)).toBe('1h 2m');
    expect(formatDuration(3 * 86_400 + 7200 + 5)).toBe('3d 2h');
    expect(formatDuration(86_400 + 30)).toBe('1d');
  });

  it('escapes the characters that make mentions and links', () => {
    expect(escapeMrkdwn('<!channel> & <@U1>')).toBe('&lt;!channel&gt; &amp; &lt;@U1&gt;');
  });
});

describe('mentions in what people and alert senders wrote', () => {
  const hostile = incident({
    title: '<!channel> & <@U0BOSS01> <https://evil.example|click>',
    description: '<!here> too',
    commander_id: '00000000-0000-4000-8000-000000000007',
    commander_name: '<!everyone>',
    commander_slack_user_id: 'U1>|<!channel',
  });
  const raw = /<!(channel|here|everyone)>|<@U0BOSS01>|<https:\/\/evil/;

  it('are escaped in the card, its fallback text, the topic, the purpose and the resolved topic', () => {
    const card = renderCard(hostile, 'https://fb.example');
    expect(card.text).toBe(
      'INC-42 [CRITICAL] &lt;!channel&gt; &amp; &lt;@U0BOSS01&gt; &lt;https://evil.example|click&gt; — Triggered',
    );
    expect(JSON.stringify(card)).not.toMatch(raw);
    for (const text of [
      channelTopic(hostile),
      channelPurpose(hostile, 'https://fb.example'),
      resolvedTopic('[RESOLVED] #inc-42', hostile),
    ]) {
      expect(text).not.toMatch(raw);
      expect(text).toContain('&lt;!');
    }
  });

  it('are escaped in the page sent as a direct message', () => {
    expect(pageText(hostile, 'https://fb.example', 'C1').text).not.toMatch(raw);
  });

  it('never cut an escape in half when shortening', () => {
    const topic = channelTopic(incident({ title: '&'.repeat(400) }));
    expect(topic.length).toBeLessThanOrEqual(250);
    expect(topic).toMatch(/(&amp;)+…/);
  });
});
