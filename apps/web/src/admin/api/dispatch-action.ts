import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type DispatchResponse, dispatchResponse } from '@tumble/contracts/resources';
import { api } from '../../api/client';
import { apiBase, type ResourceRef } from '../resource-ref';
import { resourceKeys } from './keys';

/** POST <base>/dispatch/:action { ids, values } → { success, message }; a refusal is a 4xx { message }. */
export function dispatchResourceAction(
  ref: ResourceRef,
  action: string,
  ids: number[],
  values: Record<string, unknown> = {},
): Promise<DispatchResponse> {
  return api.post(
    `${apiBase(ref)}/dispatch/${encodeURIComponent(action)}`,
    { ids, values },
    { schema: dispatchResponse },
  );
}

export function useDispatchResourceAction(ref: ResourceRef) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      action,
      ids,
      values,
    }: {
      action: string;
      ids: number[];
      values?: Record<string, unknown>;
    }) => dispatchResourceAction(ref, action, ids, values),
    // Whatever the answer, the rows may have changed.
    onSettled: () => queryClient.invalidateQueries({ queryKey: resourceKeys.all(ref) }),
  });
}
