import { useQuery } from '@tanstack/react-query';
import type { ResourceRecord } from '@tumble/contracts/resources';
import { z } from 'zod';
import { api } from '../../api/client';
import { apiBase, type ResourceRef } from '../resource-ref';
import { resourceKeys } from './keys';

/** A row as the API shows it, with `_labels` naming its referenced rows. */
export type RecordWithLabels = ResourceRecord & { _labels?: Record<string, string> };

const recordSchema = z.looseObject({ id: z.number(), _labels: z.record(z.string(), z.string()).optional() });

/** GET <base>/:id. */
export async function fetchResourceRecord(
  ref: ResourceRef,
  id: number,
  signal?: AbortSignal,
): Promise<RecordWithLabels> {
  return (await api.get(`${apiBase(ref)}/${id}`, { schema: recordSchema, signal })) as RecordWithLabels;
}

export function useResourceRecord(ref: ResourceRef | null, id: number | null) {
  return useQuery({
    queryKey: resourceKeys.record(ref ?? { resource: '', parent: null }, id ?? 0),
    queryFn: ({ signal }) => fetchResourceRecord(ref!, id!, signal),
    enabled: ref !== null && id !== null,
  });
}
