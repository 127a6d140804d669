import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormResponse } from '@tumble/contracts/http';
import { api } from '../../api/client';
import { apiBase, type ResourceRef } from '../resource-ref';
import { resourceKeys } from './keys';

/** POST <base> (create) or POST <base>/:id (update) → the generated form response. */
export function saveResourceRecord(
  ref: ResourceRef,
  id: number | null,
  values: Record<string, unknown>,
): Promise<FormResponse> {
  return api.postForm(id === null ? apiBase(ref) : `${apiBase(ref)}/${id}`, values);
}

export function useSaveResourceRecord(ref: ResourceRef, id: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: Record<string, unknown>) => saveResourceRecord(ref, id, values),
    onSuccess: (response) => {
      if (response.valid) void queryClient.invalidateQueries({ queryKey: resourceKeys.all(ref) });
    },
  });
}
