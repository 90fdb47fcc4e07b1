/**
 * `DATABASE_URL` as libpq reads it, hosts included: `postgres://user:pass@pg-a:5432,pg-b:5432/firebreak`
 * lists the nodes of a failover pair, tried in order, and `target_session_attrs` says which of them
 * may serve a session. Firebreak writes on every path, so only `read-write` (the default here, where
 * libpq's is `any`) and `primary` are accepted (docs/decisions.md#postgresql-failover).
 */

/** The sessions Firebreak accepts: a server that takes writes. */
export const TARGET_SESSION_ATTRS = ['read-write', 'primary'] as const;
export type TargetSessionAttrs = (typeof TARGET_SESSION_ATTRS)[number];

export interface DatabaseHost {
  host: string;
  port: number;
}

export interface DatabaseUrl {
  /** Empty: none named, the client's default (PGHOST, else localhost). */
  hosts: DatabaseHost[];
  targetSessionAttrs: TargetSessionAttrs;
}

export type ParsedDatabaseUrl = { ok: true; value: DatabaseUrl } | { ok: false; problems: string[] };

const DEFAULT_PORT = 5432;

/** Reads the hosts and the session target; each problem names the part at fault, never the password. */
export function parseDatabaseUrl(url: string): ParsedDatabaseUrl {
  const scheme = /^postgres(ql)?:\/\//.exec(url);
  if (!scheme) return { ok: false, problems: ['must start with postgres:// or postgresql://'] };
  const rest = url.slice(scheme[0].length);
  const authority = rest.split(/[/?]/, 1)[0]!;
  const hostList = authority.slice(authority.lastIndexOf('@') + 1);
  const query = rest.includes('?') ? rest.slice(rest.indexOf('?') + 1) : '';
  const problems: string[] = [];

  const parts = hostList === '' ? [] : hostList.split(',');
  const several = parts.length > 1;
  const hosts: DatabaseHost[] = [];
  for (const part of parts) {
    const host = readHost(part, several);
    if (typeof host === 'string') problems.push(host);
    else hosts.push(host);
  }

  const target = new URLSearchParams(query).get('target_session_attrs');
  if (target !== null && !(TARGET_SESSION_ATTRS as readonly string[]).includes(target)) {
    problems.push(
      `target_session_attrs=${target} is not accepted: Firebreak writes, so it needs ` +
        `${TARGET_SESSION_ATTRS.join(' or ')} (read-write is the default)`,
    );
  }
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    value: { hosts, targetSessionAttrs: (target as TargetSessionAttrs | null) ?? 'read-write' },
  };
}

/**
 * One `host[:port]` of the list. In a list every host states its port: postgres.js gives a host
 * without one the first host's port where libpq gives it 5432, so an omitted port means different
 * servers to different tools. Bracketed IPv6 addresses work alone but not in a list (the client
 * splits the list at colons).
 */
function readHost(part: string, inList: boolean): DatabaseHost | string {
  let host: string;
  try {
    host = decodeURIComponent(part);
  } catch {
    return `host "${part}" is not valid percent-encoding`;
  }
  if (host === '') return 'has an empty host in its list (two commas, or one at an end)';
  if (host.startsWith('[')) {
    if (inList) return `host ${host}: an IPv6 address cannot be in a list of hosts; use a name`;
    const end = host.indexOf(']');
    const port = host.slice(end + 1).replace(/^:/, '');
    return withPort(host.slice(0, end + 1), port, false);
  }
  const [name, port, extra] = host.split(':');
  if (extra !== undefined) return `host ${host}: more than one colon (an IPv6 address goes in brackets)`;
  if (name === '') return `host ${host}: no name before the port`;
  return withPort(name!, port ?? '', inList);
}

function withPort(host: string, port: string, portRequired: boolean): DatabaseHost | string {
  if (port === '') {
    if (portRequired) return `host ${host}: give each host of a list its port (${host}:${DEFAULT_PORT})`;
    return { host, port: DEFAULT_PORT };
  }
  const number = Number(port);
  if (!/^\d+$/.test(port) || number < 1 || number > 65535)
    return `host ${host}: port "${port}" is not a number from 1 to 65535`;
  return { host, port: number };
}
