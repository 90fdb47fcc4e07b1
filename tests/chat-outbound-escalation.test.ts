// Outbound chat beyond people's own changes: escalation pages (direct messages and a channel mention,
// docs/api.md#on-call) and what alert intake reports (linked alerts, all alerts resolved).
import { readPageLink, recordAlerts, updateIncident } from '@firebreak/services';
import { waitFor } from '@firebreak/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  actor,
  type ChatHarness,
  chatUser,
  defaultPolicyPaging,
  startChatHarness,
  texts,
} from './support/chat-outbound';

let h: ChatHarness | undefined;

afterEach(async () => {
  await h?.stop();
  h = undefined;
});

describe('escalation notices', () => {
  it('pages each target with a chat id by direct message, once, and mentions them in the channel', async () => {
    h = await startChatHarness();
    const alice = await chatUser(h.runtime, 'Alice', 'U0ALICE01');
    const dana = await chatUser(h.runtime, 'Dana', null);
    await defaultPolicyPaging(h.runtime, [alice.id, dana.id]);
    const incident = await h.open('Pager test');
    const channelId = await h.channelOf(incident.id);
    await waitFor(() => texts(h!.fake, channelId).length === 2, { what: 'channel mention' });
    await h.idle();

    const dms = h.fake.dms('U0ALICE01');
    expect(dms).toHaveLength(1);
    expect(dms[0]!.text).toContain(`INC-${incident.number}: Pager test`);
    expect(dms[0]!.text).toContain(`<#${channelId}>`);
    // Alice's own acknowledge link, which works without logging in.
    const ackUrl = /<([^|>]+\/api\/v1\/page\/[^|>]+)\|Acknowledge>/.exec(dms[0]!.text ?? '')?.[1];
    expect(ackUrl, dms[0]!.text).toBeDefined();
    const link = await readPageLink(h.runtime.ctx, ackUrl!.split('/').pop()!);
    expect(link).toMatchObject({ incident: { id: incident.id }, user: { id: alice.id } });
    expect(texts(h.fake, channelId)[1]).toMatch(
      /^🚨 \*Escalation\* \(tier 1 of _Page .+_\): paging <@U0ALICE01>, \*Dana\*\.$/,
    );
    expect(await h.runtime.sql`select chat_user_id as slack_user_id from chat_direct_messages`).toEqual([
      { slack_user_id: 'U0ALICE01' },
    ]);
  });

  it('sends the page even when the channel cannot be opened', async () => {
    h = await startChatHarness();
    const alice = await chatUser(h.runtime, 'Alice', 'U0ALICE01');
    await defaultPolicyPaging(h.runtime, [alice.id]);
    h.fake.removeScopes('channels:manage');
    const incident = await h.open('No channel, still paged');
    await waitFor(() => h!.fake.dms('U0ALICE01').length === 1, { what: 'page' });
    await h.idle();
    expect(h.fake.dms('U0ALICE01')).toHaveLength(1);
    expect(await h.failures(incident.id)).toEqual([{ operation: 'create_channel', code: 'missing_scope' }]);
  });

  it('reports a page the chat service refuses, and pages the others', async () => {
    h = await startChatHarness();
    const ghost = await chatUser(h.runtime, 'Ghost', 'U0GHOST99');
    const alice = await chatUser(h.runtime, 'Alice', 'U0ALICE01');
    await defaultPolicyPaging(h.runtime, [ghost.id, alice.id]);
    const incident = await h.open('Unknown chat user');
    await waitFor(() => h!.fake.dms('U0ALICE01').length === 1, { what: 'page' });
    await h.idle();
    // The failure log writes one line per change of reason: inviting the paged Ghost into the channel
    // fails with the same code (logged, not a timeline failure), and whichever fails first writes it.
    expect(h.runtime.logs.messages()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^slack: (post message|invite) failed: user_not_found$/),
      ]),
    );
    expect(await h.failures(incident.id)).toEqual([{ operation: 'direct_message', code: 'user_not_found' }]);
  });
});

describe('alert intake', () => {
  it('posts linked alerts and "all alerts resolved", and shows it on the card', async () => {
    h = await startChatHarness();
    const startedAt = new Date();
    const alert = {
      title: 'Replica lag',
      description: null,
      severity: 'critical' as const,
      externalId: 'lag-1',
      fingerprint: null,
      source: 'metrics',
      labels: {},
      annotations: {},
      startedAt,
      endedAt: null,
    };
    const fired = await recordAlerts(h.runtime.ctx, 'generic', [{ ...alert, status: 'firing' }]);
    const incidentId = fired.alerts[0]!.incident_id!;
    const channelId = await h.channelOf(incidentId);
    await recordAlerts(h.runtime.ctx, 'generic', [{ ...alert, status: 'resolved', endedAt: new Date() }]);
    await waitFor(() => texts(h!.fake, channelId).length === 3, { what: 'two posts' });
    await h.idle();
    expect(texts(h.fake, channelId).slice(1)).toEqual([
      '🔔 Alert linked: *Replica lag* (critical).',
      '🟢 All alerts of this incident are resolved. Resolve the incident once it is over.',
    ]);
    const card = h.fake.messages(channelId)[0]!;
    expect(JSON.stringify(card.blocks)).toContain('All alerts resolved');
    expect(JSON.stringify(card.blocks)).toContain('Alert (1 alert)');
    // Resolving afterwards still works on the same card.
    await updateIncident(h.runtime.ctx, actor, { id: incidentId }, { status: 'resolved' });
    await waitFor(() => h!.fake.channel(channelId)!.name.startsWith('resolved-'), { what: 'rename' });
  });
});
