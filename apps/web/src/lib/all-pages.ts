import { get } from './api-client';

/** The largest page the incident timeline and alerts endpoints give (docs/api.md#incidents). */
const PAGE_SIZE = 500;

/**
 * Every item of a paged incident list (timeline, alerts), page after page. The incident page shows
 * the whole timeline; the API pages it so that no single answer is unbounded, and 500 a page keeps
 * the number of requests small for all but the longest incidents.
 */
export async function fetchAllPages<K extends string, T>(path: string, key: K): Promise<Record<K, T[]>> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
    if (cursor) params.set('cursor', cursor);
    const page = await get<Record<K, T[]> & { next_cursor: string | null }>(`${path}?${params}`);
    items.push(...page[key]);
    cursor = page.next_cursor;
  } while (cursor);
  return { [key]: items } as Record<K, T[]>;
}
