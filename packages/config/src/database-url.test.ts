import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';
import { parseDatabaseUrl } from './database-url';

function problemsOf(databaseUrl: string): string[] {
  try {
    loadConfig({ DATABASE_URL: databaseUrl });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('DATABASE_URL with a failover pair', () => {
  it('accepts several hosts, as libpq does, and keeps the URL as given', () => {
    const url = 'postgres://firebreak:s3cret@pg-a:5432,pg-b:5433/firebreak?target_session_attrs=read-write';
    expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
    expect(parseDatabaseUrl(url)).toEqual({
      ok: true,
      value: {
        hosts: [
          { host: 'pg-a', port: 5432 },
          { host: 'pg-b', port: 5433 },
        ],
        targetSessionAttrs: 'read-write',
      },
    });
  });

  it('asks for a read-write session unless the URL says primary', () => {
    const target = (url: string) => {
      const parsed = parseDatabaseUrl(url);
      return parsed.ok ? parsed.value.targetSessionAttrs : parsed.problems;
    };
    expect(target('postgres://db/firebreak')).toBe('read-write');
    expect(target('postgresql://pg-a:5432,pg-b:5432/firebreak?sslmode=require')).toBe('read-write');
    expect(target('postgres://pg-a:5432,pg-b:5432/firebreak?target_session_attrs=primary')).toBe('primary');
  });

  it('keeps single hosts as before: default port, bracketed IPv6', () => {
    const hosts = (url: string) => {
      const parsed = parseDatabaseUrl(url);
      return parsed.ok ? parsed.value.hosts : parsed.problems;
    };
    expect(hosts('postgres://u:p@db.internal/firebreak')).toEqual([{ host: 'db.internal', port: 5432 }]);
    expect(hosts('postgres://u:p@[::1]:6543/firebreak')).toEqual([{ host: '[::1]', port: 6543 }]);
    expect(hosts('postgres:///firebreak')).toEqual([]); // the client's default host
  });

  it.each([
    [
      'postgres://u:hunter2@pg-a:5432,pg-b:5432/firebreak?target_session_attrs=read-only',
      'DATABASE_URL: target_session_attrs=read-only is not accepted: Firebreak writes, so it needs read-write or primary (read-write is the default)',
    ],
    [
      'postgres://u:hunter2@pg-a:5432,pg-b:5432/firebreak?target_session_attrs=any',
      'DATABASE_URL: target_session_attrs=any is not accepted: Firebreak writes, so it needs read-write or primary (read-write is the default)',
    ],
    [
      'postgres://u:hunter2@pg-a:5432,,pg-b:5432/firebreak',
      'DATABASE_URL: has an empty host in its list (two commas, or one at an end)',
    ],
    [
      'postgres://u:hunter2@pg-a:5432,pg-b/firebreak',
      'DATABASE_URL: host pg-b: give each host of a list its port (pg-b:5432)',
    ],
    [
      'postgres://u:hunter2@pg-a:5432,pg-b:54x2/firebreak',
      'DATABASE_URL: host pg-b: port "54x2" is not a number from 1 to 65535',
    ],
    [
      'postgres://u:hunter2@pg-a:70000/firebreak',
      'DATABASE_URL: host pg-a: port "70000" is not a number from 1 to 65535',
    ],
    [
      'postgres://u:hunter2@[::1]:5432,pg-b:5432/firebreak',
      'DATABASE_URL: host [::1]:5432: an IPv6 address cannot be in a list of hosts; use a name',
    ],
  ])('refuses %s clearly, without the password', (url, problem) => {
    const problems = problemsOf(url);
    expect(problems).toEqual([problem]);
    expect(problems.join(' ')).not.toContain('hunter2');
  });
});
