/**
 * Grafana OnCall's `PathPrefixedPagePagination` (docs/integrations/grafana-oncall.md#pagination), reproduced
 * including its odd edges: a page past the end returns the last page, bad `page`/`perpage` fall back
 * silently, and links are absolute with query keys sorted (DRF `replace_query_param` / `remove_query_param`).
 */

/** DRF caps only the `page_size` number it reports, not the slice (`max_page_size = 100`). */
const REPORTED_PAGE_SIZE_MAX = 100;

export interface PageRequest {
  /** The full request URL as the client sent it (path and query kept for the links). */
  url: URL;
  /** 100 for users, 50 for everything else. */
  defaultSize: number;
  /** Test-only cap on both the default and `perpage` (see fixtures/oncall/README.md). */
  maxPageSize?: number;
}

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
  page_size: number;
  current_page_number: number;
  total_pages: number;
}

function positiveInt(value: string | null): number | undefined {
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  const n = Number.parseInt(value, 10);
  return n >= 1 ? n : undefined;
}

/** Absolute link with `page` set (or removed, for the link back to page 1) and keys sorted. */
function link(url: URL, page: number | null): string {
  const params = new URLSearchParams(url.search);
  if (page === null) params.delete('page');
  else params.set('page', String(page));
  params.sort();
  const query = params.toString();
  return `${url.origin}${url.pathname}${query ? `?${query}` : ''}`;
}

export function paginate<T>(items: readonly T[], request: PageRequest): Page<T> {
  const { url, defaultSize, maxPageSize } = request;
  const requested = positiveInt(url.searchParams.get('perpage')) ?? defaultSize;
  const size = maxPageSize ? Math.min(requested, maxPageSize) : requested;
  const totalPages = Math.max(1, Math.ceil(items.length / size));
  const page = Math.min(positiveInt(url.searchParams.get('page')) ?? 1, totalPages);
  return {
    count: items.length,
    next: page < totalPages ? link(url, page + 1) : null,
    previous: page === 1 ? null : link(url, page === 2 ? null : page - 1),
    results: items.slice((page - 1) * size, page * size),
    // With the test cap the envelope reports the size actually used (README); without it, DRF's cutoff.
    page_size: maxPageSize ? size : Math.min(size, REPORTED_PAGE_SIZE_MAX),
    current_page_number: page,
    total_pages: totalPages,
  };
}
