import type { Queryable } from './client';

export async function getSetting<T>(sql: Queryable, key: string): Promise<T | undefined> {
  const [row] = await sql<{ value: T }[]>`select value from settings where key = ${key}`;
  return row?.value;
}

export async function putSetting(sql: Queryable, key: string, value: unknown): Promise<void> {
  await sql`
    insert into settings (key, value) values (${key}, ${sql.json(value as never)})
    on conflict (key) do update set value = excluded.value, updated_at = now()`;
}

export async function deleteSetting(sql: Queryable, key: string): Promise<void> {
  await sql`delete from settings where key = ${key}`;
}
