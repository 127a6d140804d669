import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from './client';

/**
 * GET /api/v1/students/children: the signed-in parent's children (event and party checkout). The shape is not in
 * @tumble/contracts yet (SPEC.md point 7 says "not shown"); it belongs there once the server has it.
 */
export const parentChild = z.object({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  dob: z.string().nullable().optional(),
});
export type ParentChild = z.infer<typeof parentChild>;
const childrenResponse = z.array(parentChild);

export function childrenQuery() {
  return queryOptions({
    queryKey: ['students', 'children'],
    queryFn: ({ signal }) => api.get('/api/v1/students/children', { schema: childrenResponse, signal }),
    staleTime: 60_000,
  });
}

export function useParentChildren(options: { enabled?: boolean } = {}) {
  return useQuery({ ...childrenQuery(), enabled: options.enabled ?? true });
}
