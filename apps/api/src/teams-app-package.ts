import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TeamsConfig } from '@firebreak/config';
import { strToU8, zipSync } from 'fflate';

/** The icons Teams asks for: a 192 px colour icon and a 32 px white outline on transparency. */
const iconsDir = (() => {
  const here = dirname(fileURLToPath(import.meta.url));
  const bundled = join(here, 'teams-app');
  return existsSync(bundled) ? bundled : join(here, '..', 'assets', 'teams');
})();

/** What the bot offers in Teams' command menu: the commands the messaging endpoint understands. */
const COMMANDS = [
  { title: 'new', description: 'Open an incident: new <title>' },
  { title: 'ack', description: 'Acknowledge this channel’s incident' },
  { title: 'resolve', description: 'Resolve this channel’s incident' },
  { title: 'status', description: 'State, lead and latest timeline entries' },
  { title: 'lead', description: 'Make yourself the incident lead' },
  { title: 'escalate', description: 'Page the next tier now' },
  { title: 'note', description: 'Add a note to the timeline: note <text>' },
  { title: 'help', description: 'What the bot understands' },
];

/**
 * The Teams app package an admin uploads to Teams (docs/teams.md#set-up): `manifest.json` (schema 1.17)
 * naming this installation's bot (the app id) for teams and personal chats, with its commands and the
 * installation's own address, and the two icons. Teams requires https addresses: a `PUBLIC_URL` that is
 * not https makes a package Teams refuses, and the console says so.
 */
export function teamsAppPackage(teams: Pick<TeamsConfig, 'appId'>, publicUrl: string): Uint8Array {
  const base = publicUrl.replace(/\/+$/, '');
  const manifest = {
    $schema: 'https://developer.microsoft.com/en-us/json-schemas/teams/v1.17/MicrosoftTeams.schema.json',
    manifestVersion: '1.17',
    version: '1.0.0',
    id: teams.appId,
    developer: { name: 'Firebreak', websiteUrl: base, privacyUrl: base, termsOfUseUrl: base },
    name: { short: 'Firebreak', full: 'Firebreak incident management' },
    description: {
      short: 'Incident channels, cards and pages from Firebreak.',
      full:
        'Firebreak opens a channel per incident in your team, posts the incident card with Acknowledge, ' +
        'Resolve and Make me Lead, follows the incident in its thread and pages the on-call by direct message.',
    },
    icons: { color: 'color.png', outline: 'outline.png' },
    accentColor: '#D9480F',
    bots: [
      {
        botId: teams.appId,
        scopes: ['team', 'personal'],
        isNotificationOnly: false,
        supportsFiles: false,
        commandLists: [{ scopes: ['team', 'personal'], commands: COMMANDS }],
      },
    ],
    permissions: ['identity', 'messageTeamMembers'],
    validDomains: URL.canParse(base) ? [new URL(base).host] : [],
  };
  return zipSync({
    'manifest.json': strToU8(`${JSON.stringify(manifest, null, 2)}\n`),
    'color.png': readFileSync(join(iconsDir, 'color.png')),
    'outline.png': readFileSync(join(iconsDir, 'outline.png')),
  });
}
