import { z } from 'zod';
import { parseDatabaseUrl } from './database-url';

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalString = z.preprocess(emptyAsUndefined, z.string().optional());
const optionalUrl = z.preprocess(emptyAsUndefined, z.url().optional());
/** An id Microsoft shows as a GUID (app, tenant, team). */
const guid = z.preprocess(
  emptyAsUndefined,
  z
    .string()
    .regex(
      /^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/i,
      'must be a GUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)',
    )
    .optional(),
);

const boolean = z.preprocess(
  emptyAsUndefined,
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
    .default('false')
    .transform((value) => value === 'true' || value === '1' || value === 'yes'),
);

// PASSWORD_LOGIN: on unless turned off, so an installation without SSO keeps working as it was.
const trueByDefault = z.preprocess(
  emptyAsUndefined,
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
    .default('true')
    .transform((value) => value === 'true' || value === '1' || value === 'yes'),
);

/** A comma-separated list of group names (`OIDC_ADMIN_GROUPS=ops,sre`); empty when unset. */
const groupList = z.preprocess(
  emptyAsUndefined,
  z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((group) => group.trim())
        .filter((group) => group !== ''),
    ),
);

const positiveInt = (fallback: number) =>
  z.preprocess(emptyAsUndefined, z.coerce.number().int().positive().default(fallback));

const sentinelAddrs = z.preprocess(
  emptyAsUndefined,
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const addrs = value.split(',').map((part) => part.trim());
      return addrs.map((addr) => {
        const match = /^(.+):(\d{1,5})$/.exec(addr);
        if (!match) {
          ctx.addIssue({ code: 'custom', message: `"${addr}" is not host:port` });
          return { host: addr, port: 0 };
        }
        return { host: match[1]!, port: Number(match[2]) };
      });
    }),
);

const regex = z.preprocess(
  emptyAsUndefined,
  z
    .string()
    .default('^https://sns\\.[a-z0-9-]+\\.amazonaws\\.com(\\.cn)?/')
    .transform((value, ctx) => {
      try {
        return new RegExp(value);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'is not a valid regular expression' });
        return z.NEVER;
      }
    }),
);

/** The configuration (README.md#configuration), one entry per environment variable. */
export const EnvSchema = z.object({
  PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65535).optional()),
  // Every interface by default (containers); 127.0.0.1 behind a reverse proxy on the same host, so
  // the apps cannot be reached around it.
  HOST: z.preprocess(emptyAsUndefined, z.string().min(1).default('0.0.0.0')),
  PUBLIC_URL: optionalUrl,
  // One host, or a failover pair's nodes in order (`pg-a:5432,pg-b:5432`), as libpq reads it.
  DATABASE_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .superRefine((url, ctx) => {
        const parsed = parseDatabaseUrl(url);
        if (!parsed.ok) for (const message of parsed.problems) ctx.addIssue({ code: 'custom', message });
      })
      .optional(),
  ),
  DB_MAX_OPEN_CONNS: positiveInt(25),
  // `pnpm start` only: how many processes serve HTTP. Unset: one per core, up to a cap that the
  // embedded start applies (apps/server); 1: everything in one process, as the split apps run.
  HTTP_PROCESSES: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(64).optional()),
  REDIS_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
      .optional(),
  ),
  KV_PASSWORD: optionalString,
  KV_SENTINEL_ADDRS: sentinelAddrs,
  KV_SENTINEL_MASTER: z.preprocess(emptyAsUndefined, z.string().default('mymaster')),
  CHAT_BOT_TOKEN: optionalString,
  CHAT_SIGNING_SECRET: optionalString,
  CHAT_API_URL: z.preprocess(emptyAsUndefined, z.url().default('https://slack.com/api/')),
  // Microsoft Teams (docs/teams.md): the bot's app registration and the team incident channels go in.
  // The ids are GUIDs as Microsoft shows them; the URLs are Microsoft's own unless tests point them at
  // fakes.
  TEAMS_APP_ID: guid,
  TEAMS_APP_PASSWORD: optionalString,
  TEAMS_TENANT_ID: guid,
  TEAMS_TEAM_ID: guid,
  TEAMS_LOGIN_URL: z.preprocess(emptyAsUndefined, z.url().default('https://login.microsoftonline.com')),
  TEAMS_GRAPH_URL: z.preprocess(emptyAsUndefined, z.url().default('https://graph.microsoft.com')),
  TEAMS_SERVICE_URL: z.preprocess(
    emptyAsUndefined,
    z.url().default('https://smba.trafficmanager.net/teams/'),
  ),
  TEAMS_OPENID_METADATA_URL: z.preprocess(
    emptyAsUndefined,
    z.url().default('https://login.botframework.com/v1/.well-known/openidconfiguration'),
  ),
  AI_PROVIDER: z.preprocess(emptyAsUndefined, z.enum(['openai', 'anthropic', 'none']).default('none')),
  AI_BASE_URL: optionalUrl,
  AI_API_KEY: optionalString,
  AI_MODEL: optionalString,
  RATE_LIMIT_REQUESTS_PER_MINUTE: positiveInt(600),
  // A working day and a bit: a console left open overnight asks for the password again in the morning.
  SESSION_IDLE_TIMEOUT_MINUTES: positiveInt(720),
  // When set, GET /metrics needs `Authorization: Bearer <token>` (docs/api.md#metrics).
  METRICS_TOKEN: optionalString,
  BOOTSTRAP_ADMIN_EMAIL: z.preprocess(emptyAsUndefined, z.email().optional()),
  BOOTSTRAP_ADMIN_PASSWORD: z.preprocess(emptyAsUndefined, z.string().min(8).optional()),
  DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default('./.data')),
  LOG_LEVEL: z.preprocess(
    emptyAsUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  TRUST_PROXY: boolean,
  SNS_CERT_URL_PATTERN: regex,
  // Single sign-on (docs/sso.md).
  OIDC_ISSUER_URL: optionalUrl,
  OIDC_CLIENT_ID: optionalString,
  OIDC_CLIENT_SECRET: optionalString,
  OIDC_SCOPES: z.preprocess(emptyAsUndefined, z.string().default('openid email profile')),
  // `none`: only people in one of the groups below may sign in.
  OIDC_DEFAULT_ROLE: z.preprocess(
    emptyAsUndefined,
    z.enum(['admin', 'member', 'viewer', 'none']).default('member'),
  ),
  OIDC_GROUPS_CLAIM: optionalString,
  OIDC_ADMIN_GROUPS: groupList,
  OIDC_MEMBER_GROUPS: groupList,
  OIDC_VIEWER_GROUPS: groupList,
  PASSWORD_LOGIN: trueByDefault,
  // Personal paging (docs/paging.md): each method is on when its settings are present.
  SMTP_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
      .optional(),
  ),
  SMTP_FROM: z.preprocess(emptyAsUndefined, z.string().default('Firebreak <firebreak@localhost>')),
  TWILIO_ACCOUNT_SID: optionalString,
  TWILIO_AUTH_TOKEN: optionalString,
  TWILIO_FROM: optionalString,
  TWILIO_API_URL: z.preprocess(emptyAsUndefined, z.url().default('https://api.twilio.com')),
  VAPID_PUBLIC_KEY: optionalString,
  VAPID_PRIVATE_KEY: optionalString,
  VAPID_SUBJECT: optionalString,
  // Telegram (docs/telegram.md): the bot's token, the incident feed's chat, the Bot API's address.
  // The same patterns as Settings → Telegram's (@firebreak/schema's telegram validators, which this kit
  // may not import; apps/api/src/telegram-settings.test.ts holds both to the same answers). The token is
  // part of every Bot API URL's path, so a `/` or anything else outside BotFather's alphabet is refused.
  TELEGRAM_BOT_TOKEN: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^\d{1,20}:[A-Za-z0-9_-]{30,100}$/, 'must be a bot token as BotFather gives it: 123456:ABC-DEF…')
      .optional(),
  ),
  TELEGRAM_CHAT_ID: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^-?[1-9]\d{0,19}$/, 'must be a Telegram chat id: an integer, negative for groups')
      .optional(),
  ),
  TELEGRAM_API_URL: z.preprocess(emptyAsUndefined, z.url().default('https://api.telegram.org')),
});

/**
 * Rules between variables. Checked on the raw environment, apart from the schema, so they are
 * reported together with every per-variable problem rather than only once those are fixed.
 */
export function crossVariableProblems(env: Record<string, string | undefined>): string[] {
  const set = (name: string) => env[name] !== undefined && env[name] !== '';
  const problems: string[] = [];
  if (set('BOOTSTRAP_ADMIN_EMAIL') !== set('BOOTSTRAP_ADMIN_PASSWORD')) {
    problems.push(
      'BOOTSTRAP_ADMIN_EMAIL: BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_ADMIN_PASSWORD must be set together',
    );
  }
  problems.push(...ssoProblems(env, set));
  problems.push(...allOrNone(set, ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM']));
  problems.push(...allOrNone(set, ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT']));
  problems.push(
    ...allOrNone(set, ['TEAMS_APP_ID', 'TEAMS_APP_PASSWORD', 'TEAMS_TENANT_ID', 'TEAMS_TEAM_ID']),
  );
  problems.push(...pagingLinkProblems(set));
  if (env.AI_PROVIDER === 'anthropic' && !set('AI_API_KEY')) {
    problems.push('AI_API_KEY: is required when AI_PROVIDER=anthropic');
  }
  return problems;
}

/**
 * Every page by e-mail, SMS, voice or push carries links built from PUBLIC_URL (the acknowledge link,
 * the incident, the voice call's TwiML URL, which Twilio also signs its callbacks over). Without it they
 * would point at this machine's localhost, which the person's phone cannot open.
 */
function pagingLinkProblems(set: (name: string) => boolean): string[] {
  if (set('PUBLIC_URL')) return [];
  const methods = [
    ['SMTP_URL', ['SMTP_URL']],
    ['TWILIO_*', ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM']],
    ['VAPID_*', ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT']],
    ['TELEGRAM_BOT_TOKEN', ['TELEGRAM_BOT_TOKEN']],
  ] as const;
  const given = methods.filter(([, names]) => names.some(set)).map(([label]) => label);
  if (given.length === 0) return [];
  return [`PUBLIC_URL: is required when ${given.join(' or ')} is set: every page's links start with it`];
}

/** A method configured by several variables is on only when all of them are set. */
function allOrNone(set: (name: string) => boolean, names: string[]): string[] {
  const given = names.filter(set);
  if (given.length === 0 || given.length === names.length) return [];
  const last = names[names.length - 1];
  return [`${names[0]}: ${names.slice(0, -1).join(', ')} and ${last} must be set together`];
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function ssoProblems(env: Record<string, string | undefined>, set: (name: string) => boolean): string[] {
  const problems: string[] = [];
  const ssoNames = ['OIDC_ISSUER_URL', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'];
  const sso = ssoNames.some(set);
  if (sso && !ssoNames.every(set)) {
    problems.push(
      'OIDC_ISSUER_URL: OIDC_ISSUER_URL, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set together',
    );
  }
  // The redirect URL registered at the provider is built from PUBLIC_URL: a request's own Host header
  // cannot be trusted for it behind a proxy.
  if (sso && !set('PUBLIC_URL')) problems.push('PUBLIC_URL: is required when OIDC_ISSUER_URL is set');
  if (set('OIDC_ISSUER_URL') && URL.canParse(env.OIDC_ISSUER_URL!)) {
    const issuer = new URL(env.OIDC_ISSUER_URL!);
    // Plain HTTP only to a provider on this machine (development, tests): tokens cross that connection.
    if (
      issuer.protocol !== 'https:' &&
      !(issuer.protocol === 'http:' && LOOPBACK_HOSTS.has(issuer.hostname))
    ) {
      problems.push('OIDC_ISSUER_URL: must be https:// (http:// only for localhost)');
    }
  }
  const groupNames = ['OIDC_ADMIN_GROUPS', 'OIDC_MEMBER_GROUPS', 'OIDC_VIEWER_GROUPS'];
  if (groupNames.some(set) && !set('OIDC_GROUPS_CLAIM')) {
    problems.push(
      'OIDC_GROUPS_CLAIM: is required when OIDC_ADMIN_GROUPS, OIDC_MEMBER_GROUPS or OIDC_VIEWER_GROUPS is set',
    );
  }
  if (env.OIDC_DEFAULT_ROLE === 'none' && !groupNames.some(set)) {
    problems.push(
      'OIDC_DEFAULT_ROLE: none needs at least one of OIDC_ADMIN_GROUPS, OIDC_MEMBER_GROUPS, OIDC_VIEWER_GROUPS',
    );
  }
  // Without SSO, turning password login off would leave only the first admin able to log in.
  if (['false', '0', 'no'].includes(env.PASSWORD_LOGIN ?? '') && !sso) {
    problems.push('PASSWORD_LOGIN: false needs single sign-on (OIDC_ISSUER_URL)');
  }
  return problems;
}
