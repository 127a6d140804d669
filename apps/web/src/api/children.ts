import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from './client';

/**
 * GET /api/v1/students/children: the signed-in parent's children (event and party checkout), the
 * fields of `studentChild` (@tumble/contracts/students) the checkouts read.
 */
export const parentChild = z.object({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  dob: z.string().nullable().optional(),
  /** The family's usual insurance choice (My Children), offered first at checkout. */
  insurance_type: z.enum(['daily_insurance', 'full_insurance', '']).optional(),
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
