import { readFileSync } from 'node:fs';

/** Environment names whose value is a secret: each may instead be given as `<NAME>_FILE`. */
export const secretNames = [
  'DATABASE_URL',
  'REDIS_URL',
  'KV_PASSWORD',
  'CHAT_BOT_TOKEN',
  'CHAT_SIGNING_SECRET',
  'AI_API_KEY',
  'BOOTSTRAP_ADMIN_PASSWORD',
  'OIDC_CLIENT_SECRET',
  'METRICS_TOKEN',
  'SMTP_URL',
  'TWILIO_AUTH_TOKEN',
  'VAPID_PRIVATE_KEY',
  'TELEGRAM_BOT_TOKEN',
  'TEAMS_APP_PASSWORD',
] as const;

export type Env = Record<string, string | undefined>;

/**
 * Returns a copy of `env` where every `<SECRET>_FILE` has been replaced by `<SECRET>` holding the
 * file's content (trailing newline removed, as container secrets usually end with one).
 * Problems are collected, not thrown, so start-up can report every one of them at once.
 */
export function resolveSecretFiles(env: Env, problems: string[]): Env {
  const out: Env = { ...env };
  for (const name of secretNames) {
    const fileName = `${name}_FILE`;
    const path = env[fileName];
    if (path === undefined || path === '') continue;
    if (env[name] !== undefined && env[name] !== '') {
      problems.push(`${name} and ${fileName} are both set; set only one of them`);
      continue;
    }
    try {
      out[name] = readFileSync(path, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      const reason = error instanceof Error && 'code' in error ? String(error.code) : 'unreadable';
      problems.push(`${fileName}: cannot read ${path} (${reason})`);
    }
    delete out[fileName];
  }
  return out;
}
