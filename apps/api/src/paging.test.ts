import { contactMethods, outbox } from '@firebreak/db';
import { startTestApp, type TestRuntime, type TestUser } from '@firebreak/runtime/testing';
import { CreateEscalationPolicyInput } from '@firebreak/schema';
import {
  createEscalationPolicy,
  createIncident,
  readVerificationToSend,
  runEscalation,
  setDefaultEscalationPolicy,
  signPageLink,
} from '@firebreak/services';
import { bodyOf, type TestClient } from '@firebreak/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';

// Personal paging's API (docs/api.md#personal-paging) and the acknowledge link's pages.
let runtime: TestRuntime;
let api: TestClient;
let app: ReturnType<typeof createApp>;
let admin: TestUser;
let member: TestUser;
let viewer: TestUser;

beforeAll(async () => {
  ({
    runtime,
    api,
    app,
    users: { admin, member, viewer },
  } = await startTestApp(createApp, {
    users: { admin: 'admin', member: { role: 'member', name: 'Mia Member' }, viewer: 'viewer' },
    // E-mail configured; Twilio and push not.
    env: { SMTP_URL: 'smtp://127.0.0.1:2525', PUBLIC_URL: 'http://firebreak.example.test' },
  }));
});
afterAll(() => runtime.cleanup());

const path = (who: string, rest = '') => `/api/v1/users/${who}/contact-methods${rest}`;

async function addEmail(token: string, address: string, who = 'me') {
  const res = await api('POST', path(who), { token, body: { type: 'email', address } });
  expect(res.status).toBe(201);
  return bodyOf(res);
}

async function verifyByCode(token: string, id: string) {
  expect((await api('POST', path('me', `/${id}/send-code`), { token })).status).toBe(202);
  const job = (await outbox.listPendingOutbox(runtime.sql, 500))
    .filter(
      (r) =>
        r.job_name === 'notify.send_code' &&
        (r.payload as { contact_method_id: string }).contact_method_id === id,
    )
    .pop()!;
  const { code } = (await readVerificationToSend(runtime.ctx, id, (job.payload as { nonce: string }).nonce))!;
  return api('POST', path('me', `/${id}/verify`), { token, body: { code } });
}

describe('GET /api/v1/paging/methods', () => {
  it('tells the UI what this server can send', async () => {
    const res = await api('GET', '/api/v1/paging/methods', { token: viewer.token });
    expect(await bodyOf(res)).toEqual({ methods: ['chat', 'email'], vapid_public_key: null });
  });
});

describe('contact methods', () => {
  it('adds, verifies, tests and removes a person’s own e-mail address, each change audited', async () => {
    const added = await addEmail(member.token, 'mia@example.test');
    expect(added).toMatchObject({ type: 'email', address: 'mia@example.test', verified: false });
    expect((await api('POST', path('me', `/${added.id}/test`), { token: member.token })).status).toBe(409);
    const verified = await verifyByCode(member.token, added.id);
    expect(verified.status).toBe(200);
    expect(await bodyOf(verified)).toMatchObject({ id: added.id, verified: true });
    expect(await bodyOf(await api('POST', path('me', `/${added.id}/test`), { token: member.token }))).toEqual(
      { status: 'queued' },
    );
    const list = await bodyOf(await api('GET', path('me'), { token: member.token }));
    expect(list.contact_methods.map((m: { id: string }) => m.id)).toEqual([added.id]);
    expect((await api('DELETE', path('me', `/${added.id}`), { token: member.token })).status).toBe(204);
    expect(
      (await bodyOf(await api('GET', path(member.id), { token: member.token }))).contact_methods,
    ).toEqual([]);
    const audit = await runtime.sql<{ action: string }[]>`
      select action from audit_log where entity_type = 'contact_method' and entity_id = ${added.id} order by seq`;
    expect(audit.map((a) => a.action)).toEqual(['create', 'update', 'delete']);
  });

  it('answers a wrong code with 400 and the tries left, and bad input with 400 and no row', async () => {
    const added = await addEmail(viewer.token, 'vic@example.test');
    await api('POST', path('me', `/${added.id}/send-code`), { token: viewer.token });
    const wrong = await api('POST', path('me', `/${added.id}/verify`), {
      token: viewer.token,
      body: { code: '12345' },
    });
    expect(wrong.status).toBe(400);
    const sms = await api('POST', path('me'), {
      token: viewer.token,
      body: { type: 'sms', address: '+14155550100' },
    });
    expect(sms.status).toBe(400);
    expect((await bodyOf(sms)).error.message).toBe('sms is not configured on this server.');
    const bad = await api('POST', path('me'), {
      token: viewer.token,
      body: { type: 'email', address: 'not an address' },
    });
    expect(bad.status).toBe(400);
    // A push endpoint over plain http to another host would make the worker POST inside the network.
    const internal = await api('POST', path('me'), {
      token: viewer.token,
      body: {
        type: 'push',
        subscription: {
          endpoint: 'http://10.0.0.5:8080/x',
          keys: { p256dh: 'B'.repeat(87), auth: 'A'.repeat(22) },
        },
      },
    });
    expect(internal.status).toBe(400);
    expect((await bodyOf(internal)).error.details).toEqual([
      {
        path: 'subscription.endpoint',
        message: 'must be an https:// URL (http:// only for localhost, 127.0.0.1 or [::1])',
      },
    ]);
    expect((await contactMethods.listContactMethods(runtime.sql, viewer.id)).map((m) => m.address)).toEqual([
      'vic@example.test',
    ]);
  });

  it('lets admins manage anyone’s, and hides another person’s from a member (404)', async () => {
    const other = await addEmail(admin.token, 'mia.work@example.test', member.id);
    expect((await api('GET', path(admin.id), { token: member.token })).status).toBe(404);
    expect((await api('DELETE', path(member.id, `/${other.id}`), { token: viewer.token })).status).toBe(404);
    expect((await api('DELETE', path('me', `/${other.id}`), { token: admin.token })).status).toBe(404);
    expect((await api('DELETE', path(member.id, `/${other.id}`), { token: admin.token })).status).toBe(204);
    expect((await api('GET', path('nobody'), { token: admin.token })).status).toBe(404);
  });
});

describe('notification rules', () => {
  it('gives the default, refuses a rule that cannot reach the person, and replaces the list', async () => {
    const rulesPath = '/api/v1/users/me/notification-rules';
    expect(await bodyOf(await api('GET', rulesPath, { token: member.token }))).toEqual({
      rules: [{ method: 'chat', delay_minutes: 0, contact_method_id: null }],
      default: true,
      reaches_nothing: false,
    });
    const refused = await api('PUT', rulesPath, {
      token: member.token,
      body: {
        rules: [
          { method: 'email', delay_minutes: 0 },
          { method: 'voice', delay_minutes: 5 },
        ],
      },
    });
    expect(refused.status).toBe(400);
    expect((await bodyOf(refused)).error.message).toBe(
      'rules.0: email has no verified contact method; rules.1: voice is not configured on this server',
    );
    const email = await addEmail(member.token, 'mia.rules@example.test');
    await verifyByCode(member.token, email.id);
    const put = await api('PUT', rulesPath, {
      token: member.token,
      body: {
        rules: [
          { method: 'email', delay_minutes: 0 },
          { method: 'email', delay_minutes: 10, contact_method_id: email.id },
        ],
      },
    });
    expect(put.status).toBe(200);
    expect(await bodyOf(put)).toEqual({
      rules: [
        { method: 'email', delay_minutes: 0, contact_method_id: null },
        { method: 'email', delay_minutes: 10, contact_method_id: email.id },
      ],
      default: false,
    });
    const tooLate = await api('PUT', rulesPath, {
      token: member.token,
      body: { rules: [{ method: 'email', delay_minutes: 1441 }] },
    });
    expect(tooLate.status).toBe(400);
    expect(
      (
        await api('PUT', `/api/v1/users/${member.id}/notification-rules`, {
          token: viewer.token,
          body: { rules: [] },
        })
      ).status,
    ).toBe(404);
    const [audit] = await runtime.sql<{ entity_id: string }[]>`
      select entity_id from audit_log where entity_type = 'notification_rules' order by seq desc limit 1`;
    expect(audit!.entity_id).toBe(member.id);
    // The rules stand when the address goes, and GET says they now reach nothing.
    expect((await bodyOf(await api('GET', rulesPath, { token: member.token }))).reaches_nothing).toBe(false);
    await contactMethods.disableContactMethod(runtime.sql, email.id, 'mailbox gone', new Date());
    expect(await bodyOf(await api('GET', rulesPath, { token: member.token }))).toMatchObject({
      default: false,
      reaches_nothing: true,
    });
  });
});

describe('the acknowledge link', () => {
  async function page() {
    const policy = await createEscalationPolicy(
      runtime.ctx,
      CreateEscalationPolicyInput.parse({
        name: `Link ${Math.random()}`,
        tiers: [{ target_type: 'users', user_ids: [member.id], timeout_seconds: 600 }],
      }),
    );
    await setDefaultEscalationPolicy(runtime.ctx, policy.id);
    const incident = await createIncident(
      runtime.ctx,
      { type: 'user', name: 'tester' },
      { title: 'API <slow>', severity: 'high' },
    );
    await runEscalation(runtime.ctx, incident.id);
    return { incident, token: await signPageLink(runtime.ctx, incident.id, member.id) };
  }
  const status = async (id: string) =>
    (await runtime.sql<{ status: string }[]>`select status from incidents where id = ${id}`)[0]!.status;

  it('shows a page on GET without acknowledging, and acknowledges on the button’s POST', async () => {
    const { incident, token } = await page();
    const view = await app.request(`/api/v1/page/${token}`);
    expect(view.status).toBe(200);
    expect(view.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await view.text();
    expect(html).toContain(`#${incident.number} API &#60;slow&#62;`);
    expect(html).toContain('<form method="post"><button type="submit">Acknowledge</button></form>');
    expect(html).not.toContain('<script');
    expect(await status(incident.id)).toBe('triggered');

    const ack = await app.request(`/api/v1/page/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(ack.status).toBe(200);
    expect(await ack.text()).toContain('Acknowledged. The escalation has stopped.');
    expect(await status(incident.id)).toBe('acknowledged');
    const [entry] = await runtime.sql<{ actor_name: string; data: { via: string } }[]>`
      select actor_name, data from timeline_entries where incident_id = ${incident.id} and type = 'status_changed'`;
    expect(entry).toMatchObject({ actor_name: 'Mia Member', data: { via: 'link' } });
    // The request log keeps only the token's first characters.
    const logged = runtime.logs.lines
      .map((line) => line.path)
      .filter((p) => String(p).startsWith('/api/v1/page/'));
    expect(logged).toEqual([`/api/v1/page/${token.slice(0, 4)}…`, `/api/v1/page/${token.slice(0, 4)}…`]);
    expect(JSON.stringify(runtime.logs.lines)).not.toContain(token);
  });

  it('answers a push notification’s POST in JSON, and refuses a tampered token with 404 and no change', async () => {
    const { incident, token } = await page();
    const tampered = `${token.slice(0, 69)}${token.endsWith('A') ? 'B' : 'A'}`;
    const view = await app.request(`/api/v1/page/${tampered}`);
    expect(view.status).toBe(404);
    expect(await view.text()).toContain('This acknowledge link is not valid');
    const refused = await app.request(`/api/v1/page/${tampered}?via=push`, { method: 'POST' });
    expect(refused.status).toBe(404);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('not_found');
    expect(await status(incident.id)).toBe('triggered');

    const ack = await app.request(`/api/v1/page/${token}?via=push`, { method: 'POST' });
    expect(await ack.json()).toEqual({
      outcome: 'acknowledged',
      incident: { id: incident.id, number: incident.number, title: 'API <slow>' },
    });
    const again = await app.request(`/api/v1/page/${token}?via=push`, { method: 'POST' });
    expect(await again.json()).toMatchObject({
      outcome: 'already',
      status: 'acknowledged',
      by: 'Mia Member',
    });
    const button = await app.request(`/api/v1/page/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(await button.text()).toContain('Already acknowledged by Mia Member. Nothing changed.');
  });

  it('acknowledges from the button of someone signed in, whose browser sends Origin: null', async () => {
    const { incident, token } = await page();
    // The page's no-referrer policy makes the form's POST carry `Origin: null`, with the session cookie.
    const ack = await app.request(`/api/v1/page/${token}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'null',
        cookie: `firebreak_session=${viewer.token}`,
      },
      body: '',
    });
    expect(ack.status).toBe(200);
    expect(await ack.text()).toContain('Acknowledged. The escalation has stopped.');
    expect(await status(incident.id)).toBe('acknowledged');
    // As the person the link was made for, not the one signed in.
    const [entry] = await runtime.sql<{ actor_name: string }[]>`
      select actor_name from timeline_entries where incident_id = ${incident.id} and type = 'status_changed'`;
    expect(entry).toMatchObject({ actor_name: 'Mia Member' });
    // Everywhere else the guard still stands.
    const forged = await app.request('/api/v1/auth/logout', {
      method: 'POST',
      headers: { origin: 'null', cookie: `firebreak_session=${viewer.token}` },
    });
    expect(forged.status).toBe(403);
  });
});
