import { useSearchParams } from 'react-router';

/**
 * List filters kept in the URL (`?status=triggered`), so a filtered view can be bookmarked and shared.
 * `filter(key)` reads one ('' when unset); `setFilter(key, '')` removes it. Changing a filter replaces
 * the history entry rather than adding one per click.
 */
export function useUrlFilters(): {
  filter: (key: string) => string;
  setFilter: (key: string, value: string) => void;
} {
  const [params, setParams] = useSearchParams();
  return {
    filter: (key) => params.get(key) ?? '',
    setFilter: (key, value) => {
      const next = new URLSearchParams(params);
      if (value) next.set(key, value);
      else next.delete(key);
      setParams(next, { replace: true });
    },
  };
}
