import { crossVariableProblems, EnvSchema } from './schema';
import { type Env, resolveSecretFiles } from './secrets';

export interface Config {
  /** Undefined means "the app's own default" (docs/api.md#processes). */
  port: number | undefined;
  /** Listen address (`HOST`, default every interface). */
  host: string;
  publicUrl: string | undefined;
  databaseUrl: string | undefined;
  dbMaxOpenConns: number;
  /** `HTTP_PROCESSES` for `pnpm start`; undefined means "the machine's default" (apps/server). */
  httpProcesses: number | undefined;
  redis: {
    /** Undefined means "not configured": the embedded start then probes the default address. */
    url: string | undefined;
    password: string | undefined;
    sentinels: Array<{ host: string; port: number }> | undefined;
    sentinelMaster: string;
  };
  chat: {
    botToken: string | undefined;
    signingSecret: string | undefined;
    apiUrl: string;
  };
  /** Microsoft Teams (docs/teams.md); undefined when not configured. Slack and Teams may both be on. */
  teams: TeamsConfig | undefined;
  ai: {
    provider: 'openai' | 'anthropic' | 'none';
    baseUrl: string | undefined;
    apiKey: string | undefined;
    model: string | undefined;
  };
  rateLimitPerMinute: number;
  sessionIdleTimeoutMinutes: number;
  /** When set, `/metrics` answers only `Authorization: Bearer <metricsToken>`. */
  metricsToken: string | undefined;
  bootstrapAdmin: { email: string; password: string } | undefined;
  dataDir: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  trustProxy: boolean;
  snsCertUrlPattern: RegExp;
  /** Single sign-on (docs/sso.md); undefined when not configured. */
  oidc: OidcConfig | undefined;
  /** False: password login only for the break-glass first admin (docs/sso.md#break-glass-admin). */
  passwordLogin: boolean;
  /** Personal paging methods (docs/paging.md); each undefined when not configured. */
  paging: PagingConfig;
  /** Telegram (docs/telegram.md): each value from the environment wins over Settings → Telegram. */
  telegram: TelegramConfig;
}

export interface TeamsConfig {
  appId: string;
  appPassword: string;
  tenantId: string;
  /** The team whose channels are the incident channels. */
  teamId: string;
  /** The Microsoft identity platform (the bot's tokens come from `<loginUrl>/<tenant>/oauth2/v2.0/token`). */
  loginUrl: string;
  graphUrl: string;
  /** The Bot Connector the bot posts to (Teams' `serviceUrl`). */
  serviceUrl: string;
  /** Where the keys that sign the Bot Connector's requests to the bot are published. */
  openIdMetadataUrl: string;
}

export interface TelegramConfig {
  botToken: string | undefined;
  /** The incident feed's chat. */
  chatId: string | undefined;
  apiUrl: string;
}

export interface PagingConfig {
  email: { smtpUrl: string; from: string } | undefined;
  twilio: { accountSid: string; authToken: string; from: string; apiUrl: string } | undefined;
  push: { publicKey: string; privateKey: string; subject: string } | undefined;
}

export interface OidcConfig {
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  /** The role of a new user in none of the mapped groups; `none` refuses them. */
  defaultRole: 'admin' | 'member' | 'viewer' | 'none';
  /** The ID-token or userinfo claim that lists the person's groups; undefined: no group mapping. */
  groupsClaim: string | undefined;
  groups: { admin: string[]; member: string[]; viewer: string[] };
}

/** The chat platforms that are on: Slack with a bot token, Teams with its four settings (docs/teams.md). */
export function chatPlatformsOn(config: {
  chat: Config['chat'];
  teams?: Config['teams'];
}): Array<'slack' | 'teams'> {
  return [
    ...(config.chat.botToken ? (['slack'] as const) : []),
    ...(config.teams ? (['teams'] as const) : []),
  ];
}

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export class ConfigError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** Parses the environment once; throws a `ConfigError` listing every problem. */
export function loadConfig(rawEnv: Env = process.env): Config {
  const problems: string[] = [];
  const env = resolveSecretFiles(rawEnv, problems);
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const name = issue.path.length > 0 ? String(issue.path[0]) : 'environment';
      problems.push(`${name}: ${issue.message}`);
    }
  }
  problems.push(...crossVariableProblems(env));
  if (problems.length > 0 || !parsed.success) throw new ConfigError(problems);
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL,
    databaseUrl: e.DATABASE_URL,
    dbMaxOpenConns: e.DB_MAX_OPEN_CONNS,
    httpProcesses: e.HTTP_PROCESSES,
    redis: {
      url: e.REDIS_URL,
      password: e.KV_PASSWORD,
      sentinels: e.KV_SENTINEL_ADDRS,
      sentinelMaster: e.KV_SENTINEL_MASTER,
    },
    chat: { botToken: e.CHAT_BOT_TOKEN, signingSecret: e.CHAT_SIGNING_SECRET, apiUrl: e.CHAT_API_URL },
    teams:
      e.TEAMS_APP_ID && e.TEAMS_APP_PASSWORD && e.TEAMS_TENANT_ID && e.TEAMS_TEAM_ID
        ? {
            appId: e.TEAMS_APP_ID,
            appPassword: e.TEAMS_APP_PASSWORD,
            tenantId: e.TEAMS_TENANT_ID,
            teamId: e.TEAMS_TEAM_ID,
            loginUrl: e.TEAMS_LOGIN_URL,
            graphUrl: e.TEAMS_GRAPH_URL,
            serviceUrl: e.TEAMS_SERVICE_URL,
            openIdMetadataUrl: e.TEAMS_OPENID_METADATA_URL,
          }
        : undefined,
    ai: { provider: e.AI_PROVIDER, baseUrl: e.AI_BASE_URL, apiKey: e.AI_API_KEY, model: e.AI_MODEL },
    rateLimitPerMinute: e.RATE_LIMIT_REQUESTS_PER_MINUTE,
    sessionIdleTimeoutMinutes: e.SESSION_IDLE_TIMEOUT_MINUTES,
    metricsToken: e.METRICS_TOKEN,
    bootstrapAdmin:
      e.BOOTSTRAP_ADMIN_EMAIL && e.BOOTSTRAP_ADMIN_PASSWORD
        ? { email: e.BOOTSTRAP_ADMIN_EMAIL, password: e.BOOTSTRAP_ADMIN_PASSWORD }
        : undefined,
    dataDir: e.DATA_DIR,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    snsCertUrlPattern: e.SNS_CERT_URL_PATTERN,
    oidc:
      e.OIDC_ISSUER_URL && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET
        ? {
            issuerUrl: e.OIDC_ISSUER_URL,
            clientId: e.OIDC_CLIENT_ID,
            clientSecret: e.OIDC_CLIENT_SECRET,
            scopes: e.OIDC_SCOPES,
            defaultRole: e.OIDC_DEFAULT_ROLE,
            groupsClaim: e.OIDC_GROUPS_CLAIM,
            groups: {
              admin: e.OIDC_ADMIN_GROUPS,
              member: e.OIDC_MEMBER_GROUPS,
              viewer: e.OIDC_VIEWER_GROUPS,
            },
          }
        : undefined,
    passwordLogin: e.PASSWORD_LOGIN,
    paging: {
      email: e.SMTP_URL ? { smtpUrl: e.SMTP_URL, from: e.SMTP_FROM } : undefined,
      twilio:
        e.TWILIO_ACCOUNT_SID && e.TWILIO_AUTH_TOKEN && e.TWILIO_FROM
          ? {
              accountSid: e.TWILIO_ACCOUNT_SID,
              authToken: e.TWILIO_AUTH_TOKEN,
              from: e.TWILIO_FROM,
              apiUrl: e.TWILIO_API_URL,
            }
          : undefined,
      push:
        e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY && e.VAPID_SUBJECT
          ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY, subject: e.VAPID_SUBJECT }
          : undefined,
    },
    telegram: { botToken: e.TELEGRAM_BOT_TOKEN, chatId: e.TELEGRAM_CHAT_ID, apiUrl: e.TELEGRAM_API_URL },
  };
}

/** For `main.ts`: one line per problem on stderr, then exit 1. Never prints secret values. */
export function loadConfigOrExit(rawEnv: Env = process.env): Config {
  try {
    return loadConfig(rawEnv);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write('firebreak: invalid configuration\n');
      for (const problem of error.problems) process.stderr.write(`  ${problem}\n`);
      process.exit(1);
    }
    throw error;
  }
}
