import { queryOptions, useQuery } from '@tanstack/react-query';
import { type ResourceMeta, resourceMeta } from '@tumble/contracts/resources';
import { api } from '../../api/client';
import { apiBase, type ResourceRef } from '../resource-ref';
import { resourceKeys } from './keys';

/** GET <base>/meta: fields, columns, filters, actions and what the signed-in role may do. */
export function fetchResourceMeta(ref: ResourceRef, signal?: AbortSignal): Promise<ResourceMeta> {
  return api.get(`${apiBase(ref)}/meta`, { schema: resourceMeta, signal });
}

export function resourceMetaQuery(ref: ResourceRef) {
  return queryOptions({
    queryKey: resourceKeys.meta(ref),
    queryFn: ({ signal }) => fetchResourceMeta(ref, signal),
    staleTime: 5 * 60_000,
  });
}

export function useResourceMeta(ref: ResourceRef | null) {
  return useQuery({
    ...resourceMetaQuery(ref ?? { resource: '', parent: null }),
    enabled: ref !== null,
  });
}
