import { contactMethods, outbox, pageDeliveries, userAdmin, users } from '@firebreak/db';
import { AppError, CreateEscalationPolicyInput, type NotificationMethod } from '@firebreak/schema';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemOrigin } from '../audit';
import type { Principal } from '../auth/principal';
import { runEscalation } from '../escalation/run';
import { createIncident } from '../incidents/create';
import { updateIncident } from '../incidents/update';
import { createEscalationPolicy } from '../oncall/create-escalation-policy';
import { setDefaultEscalationPolicy } from '../settings/default-policy';
import { createTestContext, type TestContext } from '../testing/context';
import { acknowledgeAs } from './acknowledge-as';
import { acknowledgeFromPageLink } from './acknowledge-from-link';
import { acknowledgeFromSms } from './acknowledge-from-sms';
import { addContactMethod } from './add-contact-method';
import { claimPage } from './claim-page';
import { signPageLink } from './page-link';
import { readVerificationToSend } from './read-contact-for-code';
import { readPageLink } from './read-page-link';
import { recordPageOutcome } from './record-page-outcome';
import { removeContactMethod } from './remove-contact-method';
import { schedulePersonalPages } from './schedule-pages';
import { sendVerificationCode } from './send-verification-code';
import { setNotificationRules } from './set-notification-rules';
import { verifyContactMethod } from './verify-contact-method';

// Personal paging's rules with real PostgreSQL and an injected clock (docs/paging.md).
let t: TestContext;
let clock: Date;
const actor = { type: 'user' as const, name: 'tester' };
const everything = new Set<NotificationMethod>(['chat', 'email', 'sms', 'voice', 'push']);

beforeEach(async () => {
  t = await createTestContext();
  clock = new Date('2026-11-21T10:00:00.000Z');
  t.ctx.now = () => clock;
});
afterEach(() => t.cleanup());

let counter = 0;
async function person(name = 'Sam', slack: string | null = null) {
  counter += 1;
  const row = await users.insertUser(t.ctx.sql, {
    email: `p${counter}@example.test`,
    name,
    role: 'member',
    slackUserId: slack,
  });
  const owner = { id: row.id, name: row.name, slack_user_id: row.slack_user_id };
  const principal: Principal = {
    kind: 'session',
    role: 'member',
    user: { id: row.id, name, email: row.email },
  };
  return { owner, principal };
}

async function verified(userId: string, type: 'email' | 'sms' | 'voice', address: string) {
  const row = await contactMethods.insertContactMethod(t.ctx.sql, {
    userId,
    type,
    address,
    pushKeys: null,
    label: null,
    verifiedAt: clock,
    at: clock,
  });
  return row!;
}

async function codeFor(contactMethodId: string): Promise<string> {
  const rows = await outbox.listPendingOutbox(t.ctx.sql, 100);
  const job = rows
    .filter(
      (r) =>
        r.job_name === 'notify.send_code' &&
        (r.payload as { contact_method_id: string }).contact_method_id === contactMethodId,
    )
    .pop();
  const found = await readVerificationToSend(
    t.ctx,
    contactMethodId,
    (job!.payload as { nonce: string }).nonce,
  );
  return found!.code;
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return `${error.code}: ${error.message}`;
}

describe('verification', () => {
  it('verifies with the code sent, counts wrong tries, refuses after 5 and after 10 minutes', async () => {
    const { owner, principal } = await person();
    const email = await addContactMethod(
      t.ctx,
      principal,
      owner,
      { type: 'email', address: 'sam@example.test' },
      everything,
      systemOrigin,
    );
    expect(email.verified).toBe(false);
    expect(await sendVerificationCode(t.ctx, owner, email.id, everything)).toEqual({ status: 'queued' });
    const code = await codeFor(email.id);
    expect(code).toMatch(/^\d{6}$/);
    // The code is stored nowhere: only its digest and the nonce it is derived from.
    const [stored] = await t.ctx.sql`select * from contact_methods where id = ${email.id}`;
    expect(JSON.stringify(stored)).not.toContain(code);
    const wrong = code === '000000' ? '111111' : '000000';
    expect(await refusal(verifyContactMethod(t.ctx, owner, email.id, wrong, systemOrigin))).toBe(
      'validation_failed: Wrong code; 4 tries left.',
    );
    const ok = await verifyContactMethod(t.ctx, owner, email.id, code, systemOrigin);
    expect(ok.verified).toBe(true);

    const sms = await addContactMethod(
      t.ctx,
      principal,
      owner,
      { type: 'sms', address: '+14155550100' },
      everything,
      systemOrigin,
    );
    await sendVerificationCode(t.ctx, owner, sms.id, everything);
    const smsCode = await codeFor(sms.id);
    const bad = smsCode === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1)
      await refusal(verifyContactMethod(t.ctx, owner, sms.id, bad, systemOrigin));
    expect(await refusal(verifyContactMethod(t.ctx, owner, sms.id, smsCode, systemOrigin))).toBe(
      'validation_failed: Too many wrong codes; ask for a new one.',
    );
    // A new code does not give the tries back: they are 5 for the hour, however many codes are sent.
    clock = new Date(clock.getTime() + 61_000);
    expect(await refusal(sendVerificationCode(t.ctx, owner, sms.id, everything))).toBe(
      'rate_limited: Too many wrong codes for this contact method; ask for a new code after 2026-11-21T11:00:00.000Z (in 3539 s).',
    );
    clock = new Date('2026-11-21T11:00:00.000Z');
    await sendVerificationCode(t.ctx, owner, sms.id, everything);
    const fresh = await codeFor(sms.id);
    clock = new Date(clock.getTime() + 10 * 60_000 + 1);
    expect(await refusal(verifyContactMethod(t.ctx, owner, sms.id, fresh, systemOrigin))).toBe(
      'validation_failed: The code has expired; ask for a new one.',
    );
    // The audit log has the create and the verification, never a code.
    const audit = await t.ctx.sql<{ action: string; entity_type: string }[]>`
      select action, entity_type from audit_log order by seq`;
    expect(audit.map((a) => `${a.entity_type} ${a.action}`)).toEqual([
      'contact_method create',
      'contact_method update',
      'contact_method create',
    ]);
  });

  it('sends one code a minute per method and 10 an hour per person, and carries wrong tries over', async () => {
    const { owner } = await person('Val');
    const email = await contactMethods.insertContactMethod(t.ctx.sql, {
      userId: owner.id,
      type: 'email',
      address: 'val@example.test',
      pushKeys: null,
      label: null,
      verifiedAt: null,
      at: clock,
    });
    await sendVerificationCode(t.ctx, owner, email!.id, everything);
    const first = await codeFor(email!.id);
    const wrong = first === '000000' ? '111111' : '000000';
    await refusal(verifyContactMethod(t.ctx, owner, email!.id, wrong, systemOrigin));
    clock = new Date(clock.getTime() + 30_000);
    const tooSoon = await sendVerificationCode(t.ctx, owner, email!.id, everything).catch((e: AppError) => e);
    expect(tooSoon).toMatchObject({
      code: 'rate_limited',
      message:
        'A code was sent here less than a minute ago; ask for a new code after 2026-11-21T10:01:00.000Z (in 30 s).',
      details: { retry_after_seconds: 30 },
    });
    // Refused: the code sent first still stands, with its tries.
    expect(await codeFor(email!.id)).toBe(first);
    clock = new Date(clock.getTime() + 30_000);
    await sendVerificationCode(t.ctx, owner, email!.id, everything);
    const second = await codeFor(email!.id);
    const wrongAgain = second === '000000' ? '111111' : '000000';
    expect(await refusal(verifyContactMethod(t.ctx, owner, email!.id, wrongAgain, systemOrigin))).toBe(
      'validation_failed: Wrong code; 3 tries left.',
    );
    // Ten codes an hour for the person, whichever methods they go to.
    for (let i = 0; i < 8; i += 1) {
      const other = await contactMethods.insertContactMethod(t.ctx.sql, {
        userId: owner.id,
        type: 'email',
        address: `val${i}@example.test`,
        pushKeys: null,
        label: null,
        verifiedAt: null,
        at: clock,
      });
      await sendVerificationCode(t.ctx, owner, other!.id, everything);
    }
    clock = new Date(clock.getTime() + 5 * 60_000);
    expect(await refusal(sendVerificationCode(t.ctx, owner, email!.id, everything))).toBe(
      'rate_limited: 10 codes were sent to you in the last hour; ask for a new code after 2026-11-21T11:00:00.000Z (in 3240 s).',
    );
    clock = new Date('2026-11-21T11:00:00.001Z');
    expect(await sendVerificationCode(t.ctx, owner, email!.id, everything)).toEqual({ status: 'queued' });
  });

  it('counts a push subscription as verified, and only from the person’s own session', async () => {
    const { owner, principal } = await person();
    const subscription = {
      endpoint: 'https://push.example.test/send/abc',
      keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) },
    };
    const push = await addContactMethod(
      t.ctx,
      principal,
      owner,
      { type: 'push', subscription },
      everything,
      systemOrigin,
    );
    expect(push).toMatchObject({ verified: true, address: 'https://push.example.test' });
    const admin: Principal = {
      kind: 'session',
      role: 'admin',
      user: { id: crypto.randomUUID(), name: 'Ada', email: 'a@x' },
    };
    const other = { ...subscription, endpoint: 'https://push.example.test/send/def' };
    expect(
      await refusal(
        addContactMethod(
          t.ctx,
          admin,
          owner,
          { type: 'push', subscription: other },
          everything,
          systemOrigin,
        ),
      ),
    ).toMatch(/^forbidden/);
  });

  it('takes a browser’s push subscription away from the person who had it before, audited', async () => {
    const subscription = {
      endpoint: 'https://push.example.test/send/shared-laptop',
      keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) },
    };
    const before = await person('Wen');
    const after = await person('Xia');
    const first = await addContactMethod(
      t.ctx,
      before.principal,
      before.owner,
      { type: 'push', subscription },
      everything,
      systemOrigin,
    );
    await setNotificationRules(
      t.ctx,
      before.owner,
      [{ method: 'push', delay_minutes: 5 }],
      everything,
      systemOrigin,
    );
    const incident = await pagedIncident([before.owner.id]);
    // Xia signs in on the same browser and turns push on: the same endpoint.
    const second = await addContactMethod(
      t.ctx,
      after.principal,
      after.owner,
      { type: 'push', subscription },
      everything,
      systemOrigin,
    );
    expect(await contactMethods.findContactMethod(t.ctx.sql, first.id)).toBeUndefined();
    expect(await contactMethods.findContactMethod(t.ctx.sql, second.id)).toMatchObject({
      user_id: after.owner.id,
    });
    // Wen's page not yet sent goes nowhere, rather than to Xia's screen.
    const [row] = await pageDeliveries.listIncidentDeliveries(t.ctx.sql, incident.id);
    expect(row).toMatchObject({ status: 'skipped', contact_method_id: null });
    const audit = await t.ctx.sql<{ entity_id: string; action: string }[]>`
      select entity_id, action from audit_log where entity_type = 'contact_method' order by seq`;
    expect(audit).toEqual([
      { entity_id: first.id, action: 'create' },
      { entity_id: first.id, action: 'delete' },
      { entity_id: second.id, action: 'create' },
    ]);
  });

  it('refuses a method this server has not configured', async () => {
    const { owner, principal } = await person();
    expect(
      await refusal(
        addContactMethod(
          t.ctx,
          principal,
          owner,
          { type: 'sms', address: '+14155550100' },
          new Set(['chat', 'email']),
          systemOrigin,
        ),
      ),
    ).toBe('validation_failed: sms is not configured on this server.');
  });
});

describe('notification rules', () => {
  it('refuses, naming it, a rule that cannot reach the person, and changes nothing', async () => {
    const { owner } = await person('Rae');
    await verified(owner.id, 'email', 'rae@example.test');
    const message = await refusal(
      setNotificationRules(
        t.ctx,
        owner,
        [
          { method: 'email', delay_minutes: 0 },
          { method: 'sms', delay_minutes: 5 },
          { method: 'chat', delay_minutes: 0 },
          { method: 'push', delay_minutes: 1 },
        ],
        new Set(['chat', 'email', 'sms']),
        systemOrigin,
      ),
    );
    expect(message).toBe(
      'validation_failed: rules.1: sms has no verified contact method; rules.2: chat needs the user’s chat id (slack_user_id or teams_user_id); rules.3: push is not configured on this server',
    );
    const rows = await t.ctx.sql`select * from notification_rules where user_id = ${owner.id}`;
    expect(rows).toHaveLength(0);
  });
});

/** A policy with one tier paging these people, as the default, and an incident it escalates now. */
async function pagedIncident(userIds: string[]) {
  const policy = await createEscalationPolicy(
    t.ctx,
    CreateEscalationPolicyInput.parse({
      name: `P ${Math.random()}`,
      tiers: [{ target_type: 'users', user_ids: userIds, timeout_seconds: 600 }],
    }),
  );
  await setDefaultEscalationPolicy(t.ctx, policy.id);
  const incident = await createIncident(t.ctx, actor, { title: 'Checkout down', severity: 'critical' });
  await runEscalation(t.ctx, incident.id);
  return incident;
}

describe('the page rows of a step', () => {
  it('writes one row per rule and contact, due at the rule’s delay, once however often the step runs', async () => {
    const { owner } = await person('Lee', 'U0LEE');
    const email = await verified(owner.id, 'email', 'lee@example.test');
    const sms = await verified(owner.id, 'sms', '+14155550101');
    await setNotificationRules(
      t.ctx,
      owner,
      [
        { method: 'email', delay_minutes: 0 },
        { method: 'sms', delay_minutes: 3, contact_method_id: sms.id },
      ],
      everything,
      systemOrigin,
    );
    const incident = await pagedIncident([owner.id]);
    // The same step written again (a retried transaction): its rows are there already.
    await t.ctx.sql.begin((tx) =>
      schedulePersonalPages(
        tx,
        {
          incidentId: incident.id,
          round: 0,
          tier: 0,
          firedAt: clock,
          targets: [{ id: owner.id, name: 'Lee', slack_user_id: 'U0LEE' }],
        },
        t.ctx.logger,
      ),
    );
    const rows = await pageDeliveries.listIncidentDeliveries(t.ctx.sql, incident.id);
    expect(rows.map((r) => [r.rule_position, r.contact_method_id, r.due_at.toISOString(), r.status])).toEqual(
      [
        [0, email.id, '2026-11-21T10:00:00.000Z', 'pending'],
        [1, sms.id, '2026-11-21T10:03:00.000Z', 'pending'],
      ],
    );
    expect(rows[0]!.ack_code).toBeNull();
    expect(rows[1]!.ack_code).toMatch(/^\d{4}$/);
    // Lee's rules leave chat out: the step's chat notice sends them no direct message.
    const [entry] = await t.ctx.sql<{ data: { targets: unknown[] } }[]>`
      select data from timeline_entries where incident_id = ${incident.id} and type = 'escalation_triggered'`;
    expect(entry!.data.targets).toEqual([
      { id: owner.id, name: 'Lee', slack_user_id: 'U0LEE', chat_page: false },
    ]);
  });

  it('sends the chat message to a person whose rules reach nothing any more, and says so once', async () => {
    const { owner } = await person('Rui', 'U0RUI');
    const email = await verified(owner.id, 'email', 'rui@example.test');
    await setNotificationRules(
      t.ctx,
      owner,
      [
        { method: 'email', delay_minutes: 0 },
        { method: 'email', delay_minutes: 5 },
      ],
      everything,
      systemOrigin,
    );
    // Disabled after the rules were saved: the rules stand, but reach no address.
    await contactMethods.disableContactMethod(t.ctx.sql, email.id, 'mailbox gone', clock);
    const incident = await pagedIncident([owner.id]);
    expect(await pageDeliveries.listIncidentDeliveries(t.ctx.sql, incident.id)).toEqual([]);
    const [entry] = await t.ctx.sql<{ data: { targets: unknown[] } }[]>`
      select data from timeline_entries where incident_id = ${incident.id} and type = 'escalation_triggered'`;
    expect(entry!.data.targets).toEqual([{ id: owner.id, name: 'Rui', slack_user_id: 'U0RUI' }]);
    const warnings = t.logs.lines.filter((l) => l.msg === 'paging rules reach nothing');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 'warn', user_id: owner.id, incident_id: incident.id });
  });

  it('lets one claim win when two workers race for a page, and skips it once the incident is taken', async () => {
    const { owner } = await person('Kim');
    await verified(owner.id, 'email', 'kim@example.test');
    await setNotificationRules(
      t.ctx,
      owner,
      [
        { method: 'email', delay_minutes: 0 },
        { method: 'email', delay_minutes: 1 },
      ],
      everything,
      systemOrigin,
    );
    const incident = await pagedIncident([owner.id]);
    const [first, second] = await pageDeliveries.listIncidentDeliveries(t.ctx.sql, incident.id);
    const claims = await Promise.all([claimPage(t.ctx, first!.id), claimPage(t.ctx, first!.id)]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await claimPage(t.ctx, first!.id)).toBeUndefined();
    // Not due yet: nothing claimed.
    expect(await claimPage(t.ctx, second!.id)).toBeUndefined();
    await updateIncident(t.ctx, actor, { id: incident.id }, { status: 'acknowledged' });
    clock = new Date(clock.getTime() + 60_000);
    expect(await claimPage(t.ctx, second!.id)).toBeUndefined();
    expect((await pageDeliveries.findDelivery(t.ctx.sql, second!.id))!.status).toBe('skipped');
  });

  it('records a send through a brief database outage rather than leave the page to be sent again', async () => {
    const { owner } = await person('Yas');
    await verified(owner.id, 'email', 'yas@example.test');
    await setNotificationRules(
      t.ctx,
      owner,
      [{ method: 'email', delay_minutes: 0 }],
      everything,
      systemOrigin,
    );
    const incident = await pagedIncident([owner.id]);
    const [row] = await pageDeliveries.listIncidentDeliveries(t.ctx.sql, incident.id);
    const page = (await claimPage(t.ctx, row!.id))!;
    // The first two transactions find the connection gone, as during a database failover.
    let failures = 2;
    const flaky = new Proxy(t.ctx.sql, {
      get(target, prop, receiver) {
        if (prop === 'begin' && failures > 0) {
          failures -= 1;
          return async () => {
            throw Object.assign(new Error('write CONNECTION_CLOSED'), { code: 'CONNECTION_CLOSED' });
          };
        }
        return Reflect.get(target, prop, receiver);
      },
    });
    await recordPageOutcome({ ...t.ctx, sql: flaky }, page, { ok: true, providerId: 'msg-9' });
    expect(failures).toBe(0);
    expect(await pageDeliveries.findDelivery(t.ctx.sql, row!.id)).toMatchObject({
      status: 'sent',
      provider_id: 'msg-9',
    });
  });

  it('keeps the pages of a deleted contact method as history, and never sends one not yet sent', async () => {
    const { owner } = await person('Uma');
    const email = await verified(owner.id, 'email', 'uma@example.test');
    await setNotificationRules(
      t.ctx,
      owner,
      [
        { method: 'email', delay_minutes: 0 },
        { method: 'email', delay_minutes: 0 },
        { method: 'email', delay_minutes: 5 },
      ],
      everything,
      systemOrigin,
    );
    const incident = await pagedIncident([owner.id]);
    const [sent, sending, later] = await pageDeliveries.listIncidentDeliveries(t.ctx.sql, incident.id);
    expect(await claimPage(t.ctx, sent!.id)).toBeDefined();
    await pageDeliveries.recordSendOutcome(t.ctx.sql, sent!.id, {
      status: 'sent',
      providerId: 'msg-1',
      error: null,
      nextAttemptAt: null,
      at: clock,
    });
    // A worker took this one and died before it recorded what happened.
    expect(await claimPage(t.ctx, sending!.id)).toBeDefined();

    await removeContactMethod(t.ctx, owner, email.id, systemOrigin);
    const rows = await pageDeliveries.listIncidentDeliveries(t.ctx.sql, incident.id);
    expect(rows.map((r) => [r.id, r.contact_method_id, r.status, r.provider_id, r.last_error])).toEqual([
      [sent!.id, null, 'sent', 'msg-1', null],
      [sending!.id, null, 'sending', null, null],
      [later!.id, null, 'skipped', null, 'contact method removed'],
    ]);
    // The interrupted one comes back to be sent again, and is skipped: its address is gone.
    clock = new Date(clock.getTime() + 10 * 60_000);
    await pageDeliveries.releaseStaleSending(t.ctx.sql, clock, clock);
    expect(await claimPage(t.ctx, sending!.id)).toBeUndefined();
    expect(await claimPage(t.ctx, later!.id)).toBeUndefined();
    expect(await pageDeliveries.findDelivery(t.ctx.sql, sending!.id)).toMatchObject({
      status: 'skipped',
      last_error: 'contact method removed',
    });
  });
});

describe('acknowledge links', () => {
  it('reads without acknowledging, acknowledges once, and refuses a tampered or expired token', async () => {
    const { owner } = await person('Ida');
    const incident = await pagedIncident([owner.id]);
    const token = await signPageLink(t.ctx, incident.id, owner.id);
    expect(token).toHaveLength(70);
    expect(await readPageLink(t.ctx, token)).toEqual({
      incident: {
        id: incident.id,
        number: incident.number,
        title: 'Checkout down',
        severity: 'critical',
        status: 'triggered',
      },
      user: { id: owner.id, name: 'Ida' },
    });
    const flipped = `${token.slice(0, 10)}${token[10] === 'A' ? 'B' : 'A'}${token.slice(11)}`;
    expect(await readPageLink(t.ctx, flipped)).toBeNull();
    expect(await acknowledgeFromPageLink(t.ctx, flipped, 'link')).toEqual({ outcome: 'invalid' });
    expect(await acknowledgeFromPageLink(t.ctx, token, 'push')).toMatchObject({ outcome: 'acknowledged' });
    expect(await acknowledgeFromPageLink(t.ctx, token, 'link')).toMatchObject({
      outcome: 'already',
      status: 'acknowledged',
    });

    clock = new Date(clock.getTime() + 24 * 3600_000);
    expect(await readPageLink(t.ctx, token)).toBeNull();
  });
});

describe('two acknowledgements in the same instant', () => {
  it('tells the one who lost who acknowledged first', async () => {
    const ann = (await person('Ann')).owner;
    const ben = (await person('Ben')).owner;
    const incident = await pagedIncident([ann.id, ben.id]);
    // Both read the incident while it was still triggered; Ann's change commits first.
    const seen = {
      id: incident.id,
      number: incident.number,
      title: incident.title,
      status: 'triggered' as const,
    };
    expect(await acknowledgeAs(t.ctx, ann, seen, 'link')).toMatchObject({ outcome: 'acknowledged' });
    expect(await acknowledgeAs(t.ctx, ben, seen, 'sms')).toEqual({
      outcome: 'already',
      status: 'acknowledged',
      by: 'Ann',
      incident: { id: incident.id, number: incident.number, title: 'Checkout down' },
    });
    const entries = await t.ctx.sql<{ actor_name: string }[]>`
      select actor_name from timeline_entries where incident_id = ${incident.id} and type = 'status_changed'`;
    expect(entries).toEqual([{ actor_name: 'Ann' }]);
  });

  it('lets exactly one of two links racing win, and names the winner to the other', async () => {
    const cai = (await person('Cai')).owner;
    const dev = (await person('Dev')).owner;
    const incident = await pagedIncident([cai.id, dev.id]);
    const tokens = await Promise.all([cai, dev].map((p) => signPageLink(t.ctx, incident.id, p.id)));
    const results = await Promise.all(tokens.map((token) => acknowledgeFromPageLink(t.ctx, token, 'link')));
    const winner = results[0]!.outcome === 'acknowledged' ? 'Cai' : 'Dev';
    expect(results.map((r) => r.outcome).sort()).toEqual(['acknowledged', 'already']);
    expect(results.find((r) => r.outcome === 'already')).toMatchObject({
      status: 'acknowledged',
      by: winner,
    });
  });
});

describe('SMS acknowledgement', () => {
  it('acknowledges "ack <code>" from the person’s verified number, and answers anything else clearly', async () => {
    const { owner } = await person('Noa');
    const sms = await verified(owner.id, 'sms', '+14155550102');
    await setNotificationRules(
      t.ctx,
      owner,
      [{ method: 'sms', delay_minutes: 0, contact_method_id: sms.id }],
      everything,
      systemOrigin,
    );
    const incident = await pagedIncident([owner.id]);
    const [row] = await pageDeliveries.listIncidentDeliveries(t.ctx.sql, incident.id);
    const code = row!.ack_code!;
    const wrong = code === '9999' ? '1000' : '9999';

    expect(await acknowledgeFromSms(t.ctx, { from: '+14155550102', body: 'hello' })).toEqual({
      reply: 'Firebreak: reply ACK followed by the code in the page, e.g. ACK 1234.',
    });
    expect(await acknowledgeFromSms(t.ctx, { from: '+14155550199', body: `ACK ${code}` })).toEqual({
      reply: 'Firebreak: this number is not a verified contact of any user.',
    });
    expect((await acknowledgeFromSms(t.ctx, { from: '+14155550102', body: `ACK ${wrong}` })).reply).toBe(
      `Firebreak: no open page with code ${wrong}. It may be acknowledged already.`,
    );
    expect(await acknowledgeFromSms(t.ctx, { from: '+14155550102', body: ` ack ${code} ` })).toEqual({
      reply: `Firebreak: #${incident.number} acknowledged. Thank you, Noa.`,
    });
    const [entry] = await t.ctx.sql<{ actor_name: string; data: { via: string } }[]>`
      select actor_name, data from timeline_entries where incident_id = ${incident.id} and type = 'status_changed'`;
    expect(entry).toMatchObject({ actor_name: 'Noa', data: { via: 'sms' } });
    // Acknowledged: the code no longer names an open page.
    expect((await acknowledgeFromSms(t.ctx, { from: '+14155550102', body: `ACK ${code}` })).reply).toMatch(
      /no open page/,
    );
  });

  it('acknowledges nothing for a person deactivated since the page was sent', async () => {
    const { owner } = await person('Ola');
    const sms = await verified(owner.id, 'sms', '+14155550103');
    await setNotificationRules(
      t.ctx,
      owner,
      [{ method: 'sms', delay_minutes: 0, contact_method_id: sms.id }],
      everything,
      systemOrigin,
    );
    const incident = await pagedIncident([owner.id]);
    const [row] = await pageDeliveries.listIncidentDeliveries(t.ctx.sql, incident.id);
    await userAdmin.updateUser(t.ctx.sql, owner.id, { active: false }, clock);
    expect(await acknowledgeFromSms(t.ctx, { from: '+14155550103', body: `ACK ${row!.ack_code}` })).toEqual({
      reply: 'Firebreak: this number is not a verified contact of any user.',
    });
    const changes = await t.ctx.sql`
      select 1 from timeline_entries where incident_id = ${incident.id} and type = 'status_changed'`;
    expect(changes).toHaveLength(0);
  });

  it('gives a code to text pages only: a call acknowledges on key 1 and reads no code out', async () => {
    const { owner } = await person('Pia');
    const sms = await verified(owner.id, 'sms', '+14155550104');
    const voice = await verified(owner.id, 'voice', '+14155550104');
    await setNotificationRules(
      t.ctx,
      owner,
      [
        { method: 'voice', delay_minutes: 0, contact_method_id: voice.id },
        { method: 'sms', delay_minutes: 1, contact_method_id: sms.id },
      ],
      everything,
      systemOrigin,
    );
    const incident = await pagedIncident([owner.id]);
    const rows = await pageDeliveries.listIncidentDeliveries(t.ctx.sql, incident.id);
    expect(rows.map((r) => [r.method, r.ack_code === null])).toEqual([
      ['voice', true],
      ['sms', false],
    ]);
  });
});
