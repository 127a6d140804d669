import { useQuery } from '@tanstack/react-query';
import { type FormDefinition, formDefinition } from '@tumble/contracts/resources';
import { api } from '../../api/client';
import { apiBase, type ResourceRef } from '../resource-ref';
import { resourceKeys } from './keys';

/** GET <base>/add or <base>/:id/edit: the form definition (fields with their current values). */
export function fetchFormDefinition(
  ref: ResourceRef,
  id: number | null,
  signal?: AbortSignal,
): Promise<FormDefinition> {
  const path = id === null ? `${apiBase(ref)}/add` : `${apiBase(ref)}/${id}/edit`;
  return api.get(path, { schema: formDefinition, signal });
}

export function useFormDefinition(ref: ResourceRef, id: number | null) {
  return useQuery({
    queryKey: resourceKeys.form(ref, id),
    queryFn: ({ signal }) => fetchFormDefinition(ref, id, signal),
    // A form shows what is stored now, not what was stored when it was last opened.
    gcTime: 0,
  });
}
