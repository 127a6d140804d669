import { apiBase, type ResourceRef } from '../resource-ref';

/** Query keys of one resource, all under its API base so a save can refresh everything of it. */
export const resourceKeys = {
  all: (ref: ResourceRef) => ['admin', apiBase(ref)] as const,
  meta: (ref: ResourceRef) => ['admin', apiBase(ref), 'meta'] as const,
  lists: (ref: ResourceRef) => ['admin', apiBase(ref), 'list'] as const,
  list: (ref: ResourceRef, query: Record<string, unknown>) => ['admin', apiBase(ref), 'list', query] as const,
  record: (ref: ResourceRef, id: number) => ['admin', apiBase(ref), 'record', id] as const,
  form: (ref: ResourceRef, id: number | null) => ['admin', apiBase(ref), 'form', id ?? 'add'] as const,
  options: (ref: ResourceRef, q: string) => ['admin', apiBase(ref), 'options', q] as const,
};
