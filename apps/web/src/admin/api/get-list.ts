import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ListResponse, listResponse } from '@tumble/contracts/resources';
import { api } from '../../api/client';
import { apiBase, type ResourceRef } from '../resource-ref';
import { resourceKeys } from './keys';

export interface ResourceListQuery {
  page: number;
  perPage: number;
  sort?: string;
  order?: 'asc' | 'desc';
  q?: string;
  /** JSON object of field → value, as the URL keeps it. */
  filter?: string;
}

/** GET <base>?page&perPage&sort&order&q&filter → { data, total }: one page, sorted and filtered by the server. */
export async function fetchResourceList(
  ref: ResourceRef,
  query: ResourceListQuery,
  signal?: AbortSignal,
): Promise<ListResponse> {
  const body = await api.get(apiBase(ref), { query: { ...query }, schema: listResponse, signal });
  return body as ListResponse;
}

export function useResourceList(ref: ResourceRef, query: ResourceListQuery, enabled = true) {
  return useQuery({
    queryKey: resourceKeys.list(ref, { ...query }),
    queryFn: ({ signal }) => fetchResourceList(ref, query, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}
