import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const APP = '0f3a1c2e-5b6d-4e7f-8a9b-0c1d2e3f4a5b';
const TENANT = '11111111-2222-4333-8444-555555555555';
const TEAM = '99999999-8888-4777-8666-555555555555';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('Teams configuration', () => {
  it('is off without its settings, and on with all four, with Microsoft’s addresses by default', () => {
    expect(loadConfig({}).teams).toBeUndefined();
    const config = loadConfig({
      TEAMS_APP_ID: APP,
      TEAMS_APP_PASSWORD: 'app secret',
      TEAMS_TENANT_ID: TENANT,
      TEAMS_TEAM_ID: TEAM,
    });
    expect(config.teams).toEqual({
      appId: APP,
      appPassword: 'app secret',
      tenantId: TENANT,
      teamId: TEAM,
      loginUrl: 'https://login.microsoftonline.com',
      graphUrl: 'https://graph.microsoft.com',
      serviceUrl: 'https://smba.trafficmanager.net/teams/',
      openIdMetadataUrl: 'https://login.botframework.com/v1/.well-known/openidconfiguration',
    });
  });

  it('takes the password from a file, as every secret', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'teams-')), 'password');
    writeFileSync(file, 'from a file\n');
    const config = loadConfig({
      TEAMS_APP_ID: APP,
      TEAMS_APP_PASSWORD_FILE: file,
      TEAMS_TENANT_ID: TENANT,
      TEAMS_TEAM_ID: TEAM,
    });
    expect(config.teams?.appPassword).toBe('from a file');
  });

  it('refuses a partial set and ids that are not GUIDs, naming each problem', () => {
    expect(problemsOf({ TEAMS_APP_ID: APP })).toEqual([
      'TEAMS_APP_ID: TEAMS_APP_ID, TEAMS_APP_PASSWORD, TEAMS_TENANT_ID and TEAMS_TEAM_ID must be set together',
    ]);
    expect(
      problemsOf({
        TEAMS_APP_ID: 'my-bot',
        TEAMS_APP_PASSWORD: 'x',
        TEAMS_TENANT_ID: 'contoso.onmicrosoft.com',
        TEAMS_TEAM_ID: TEAM,
      }),
    ).toEqual([
      'TEAMS_APP_ID: must be a GUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)',
      'TEAMS_TENANT_ID: must be a GUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)',
    ]);
  });
});
