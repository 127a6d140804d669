import type { ResourceMeta } from '@tumble/contracts/resources';
import { useSearchParams } from 'react-router';
import type { ResourceListQuery } from '../api/get-list';

export const PER_PAGE_CHOICES = [10, 25, 50, 100] as const;
const DEFAULT_PER_PAGE = 25;

export type FilterValue = string | number | boolean;
export type FilterState = Record<string, FilterValue>;

function positiveInt(value: string | null, fallback: number, max: number): number {
  if (!value || !/^\d+$/.test(value)) return fallback;
  const n = Number(value);
  return n >= 1 && n <= max ? n : fallback;
}

/** The `filter` parameter as an object; anything unreadable counts as no filter. */
export function parseFilter(raw: string | null): FilterState {
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const out: FilterState = {};
    for (const [key, value] of Object.entries(parsed)) {
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
        out[key] = value;
    }
    return out;
  } catch {
    return {};
  }
}

/**
 * The list's state lives in the URL (?q=&page=&perPage=&sort=&order=&filter=), so a list can be
 * bookmarked, shared, reloaded and left with Back without losing its search, filters and page.
 */
export function useListParams(meta: ResourceMeta) {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const page = positiveInt(params.get('page'), 1, 1_000_000);
  const perPage = positiveInt(params.get('perPage'), DEFAULT_PER_PAGE, 100);
  const sortParam = params.get('sort');
  const sort = sortParam && meta.sortable.includes(sortParam) ? sortParam : meta.defaultSort.field;
  const order: 'asc' | 'desc' =
    params.get('order') === 'desc' || params.get('order') === 'asc'
      ? (params.get('order') as 'asc' | 'desc')
      : sortParam
        ? 'asc'
        : meta.defaultSort.order;
  const filter = parseFilter(params.get('filter'));

  /** Changes some parameters; any change but the page itself goes back to page 1. */
  function update(changes: Record<string, string | null>, options: { replace?: boolean } = {}) {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null || value === '') next.delete(key);
          else next.set(key, value);
        }
        if (!('page' in changes)) next.delete('page');
        return next;
      },
      { replace: options.replace ?? false },
    );
  }

  const query: ResourceListQuery = {
    page,
    perPage,
    sort,
    order,
    ...(q ? { q } : {}),
    ...(Object.keys(filter).length ? { filter: JSON.stringify(filter) } : {}),
  };

  return {
    q,
    page,
    perPage,
    sort,
    order,
    filter,
    query,
    hasCriteria: q !== '' || Object.keys(filter).length > 0,
    setSearch: (value: string) => update({ q: value.trim() || null }, { replace: true }),
    setPage: (value: number) => update({ page: value > 1 ? String(value) : null }),
    setPerPage: (value: number) => update({ perPage: value === DEFAULT_PER_PAGE ? null : String(value) }),
    /** Click on a column: ascending first, then descending. */
    toggleSort: (field: string) =>
      update({ sort: field, order: sort === field && order === 'asc' ? 'desc' : 'asc' }),
    setFilter: (field: string, value: FilterValue | null) => {
      const next = { ...filter };
      if (value === null || value === '') delete next[field];
      else next[field] = value;
      update({ filter: Object.keys(next).length ? JSON.stringify(next) : null });
    },
    clearCriteria: () => update({ q: null, filter: null }),
  };
}

export type ListParams = ReturnType<typeof useListParams>;
