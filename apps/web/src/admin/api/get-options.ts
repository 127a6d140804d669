import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type Option, optionSchema } from '@tumble/contracts/resources';
import { z } from 'zod';
import { api } from '../../api/client';
import { apiBase, type ResourceRef } from '../resource-ref';
import { resourceKeys } from './keys';

const optionList = z.array(optionSchema);

/** GET <base>/options?q → [{ value, label }]: the choices of a reference field (at most 50). */
export function fetchResourceOptions(ref: ResourceRef, q: string, signal?: AbortSignal): Promise<Option[]> {
  return api.get(`${apiBase(ref)}/options`, { query: { q: q || undefined }, schema: optionList, signal });
}

export function useResourceOptions(ref: ResourceRef | null, q = '') {
  return useQuery({
    queryKey: resourceKeys.options(ref ?? { resource: '', parent: null }, q),
    queryFn: ({ signal }) => fetchResourceOptions(ref!, q, signal),
    enabled: ref !== null,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}
