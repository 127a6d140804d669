import { useQuery } from '@tanstack/react-query';
import { type MyWaivers, myWaiversResponse } from '@tumble/contracts/students';
import { api } from '../../../api/client';
import { studentKeys } from './keys';

/** GET /api/v1/students/waivers: the waivers signed for the parent's children. */
export function fetchMyWaivers(signal?: AbortSignal): Promise<MyWaivers> {
  return api.get('/api/v1/students/waivers', { schema: myWaiversResponse, signal });
}

export function useMyWaivers() {
  return useQuery({ queryKey: studentKeys.waivers, queryFn: ({ signal }) => fetchMyWaivers(signal) });
}
