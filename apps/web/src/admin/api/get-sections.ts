import { useQuery } from '@tanstack/react-query';
import { type RecordSections, recordSections } from '@tumble/contracts/resources';
import { api } from '../../api/client';
import { apiBase, type ResourceRef } from '../resource-ref';
import { resourceKeys } from './keys';

/**
 * GET <base>/:id/sections: the related lists of a row (a booking's children and days). Keyed under
 * the row, so an action that refreshes the row refreshes them too.
 */
export function useRecordSections(ref: ResourceRef, id: number, enabled: boolean) {
  return useQuery({
    queryKey: [...resourceKeys.record(ref, id), 'sections'],
    queryFn: ({ signal }): Promise<RecordSections> =>
      api.get(`${apiBase(ref)}/${id}/sections`, { schema: recordSections, signal }),
    enabled,
  });
}
