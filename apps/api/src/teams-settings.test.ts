// Teams in Settings (docs/teams.md#set-up): whether it is on, and the app package an admin uploads to
// Teams, built for this installation's bot.
import { oneUserPerRole, startTestApp, type TestRuntime, type TestUser } from '@firebreak/runtime/testing';
import {
  bodyOf,
  FAKE_TEAMS_APP_ID,
  FAKE_TEAMS_TEAM_ID,
  FAKE_TEAMS_TENANT_ID,
  type TestClient,
} from '@firebreak/testing';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from './app';

const TEAMS_ENV = {
  TEAMS_APP_ID: FAKE_TEAMS_APP_ID,
  TEAMS_APP_PASSWORD: 'app password',
  TEAMS_TENANT_ID: FAKE_TEAMS_TENANT_ID,
  TEAMS_TEAM_ID: FAKE_TEAMS_TEAM_ID,
  PUBLIC_URL: 'https://firebreak.example.test/',
};

const runtimes: TestRuntime[] = [];
afterAll(async () => {
  for (const runtime of runtimes) await runtime.cleanup();
});

async function start(
  env: Record<string, string>,
): Promise<{ api: TestClient; admin: TestUser; member: TestUser }> {
  const started = await startTestApp(createApp, { env, users: oneUserPerRole });
  runtimes.push(started.runtime);
  return { api: started.api, admin: started.users.admin, member: started.users.member };
}

describe('Teams settings', () => {
  it('shows Teams on, with its team, and builds the app package for this bot', async () => {
    const { api, admin, member } = await start(TEAMS_ENV);
    const settings = await bodyOf(await api('GET', '/api/v1/settings', { token: member.token }));
    expect(settings.teams).toEqual({ configured: true, team_id: FAKE_TEAMS_TEAM_ID });
    // The app password is never shown.
    expect(JSON.stringify(settings)).not.toContain('app password');

    expect(
      (await api('GET', '/api/v1/settings/chat/teams-app-package', { token: member.token })).status,
    ).toBe(403);
    const res = await api('GET', '/api/v1/settings/chat/teams-app-package', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="firebreak-teams-app.zip"');
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual(['color.png', 'manifest.json', 'outline.png']);
    const manifest = JSON.parse(strFromU8(files['manifest.json']!));
    expect(manifest).toMatchObject({
      manifestVersion: '1.17',
      id: FAKE_TEAMS_APP_ID,
      bots: [{ botId: FAKE_TEAMS_APP_ID, scopes: ['team', 'personal'] }],
      developer: { websiteUrl: 'https://firebreak.example.test' },
      validDomains: ['firebreak.example.test'],
    });
    expect(manifest.bots[0].commandLists[0].commands.map((c: { title: string }) => c.title)).toEqual(
      expect.arrayContaining(['new', 'ack', 'resolve', 'status']),
    );
    // PNG signatures: the colour icon and the outline.
    for (const icon of ['color.png', 'outline.png']) {
      expect([...files[icon]!.slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    }
  });

  it('shows Teams off, and has no package to give, without its settings', async () => {
    const { api, admin } = await start({});
    expect((await bodyOf(await api('GET', '/api/v1/settings', { token: admin.token }))).teams).toEqual({
      configured: false,
      team_id: null,
    });
    const res = await api('GET', '/api/v1/settings/chat/teams-app-package', { token: admin.token });
    expect(res.status).toBe(409);
    expect((await bodyOf(res)).error.message).toContain('TEAMS_APP_ID');
  });
});
