import { useSearchParams } from 'react-router';

/** ?page=&q= of a paged account list, kept in the URL like the resource lists. */
export function usePageQuery() {
  const [params, setParams] = useSearchParams();
  const raw = params.get('page');
  const page = raw && /^\d{1,6}$/.test(raw) && Number(raw) > 0 ? Number(raw) : 1;
  const q = params.get('q') ?? '';
  const set = (changes: Record<string, string | null>, replace = false) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null || value === '') next.delete(key);
          else next.set(key, value);
        }
        return next;
      },
      { replace },
    );
  return {
    page,
    q,
    setPage: (value: number) => set({ page: value > 1 ? String(value) : null }),
    setSearch: (value: string) => set({ q: value.trim() || null, page: null }, true),
  };
}
