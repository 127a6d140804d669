import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type CreateFeedRequest,
  createdFeedResponse,
  familyFeedResponse,
  staffFeedsResponse,
} from '@tumble/contracts/calendar-feeds';
import { api } from '../../api/client';

const STAFF = '/api/v1/admin/integrations/google/feeds';
const FAMILY = '/api/v1/students/calendar-feed';

export function useStaffFeeds() {
  return useQuery({
    queryKey: ['admin', 'calendar-feeds'],
    queryFn: ({ signal }) => api.get(STAFF, { schema: staffFeedsResponse, signal }),
  });
}

/** Makes (or remakes, revoking the old URL) the company's feed or a coach's. */
export function useCreateFeed() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateFeedRequest) => api.post(STAFF, body, { schema: createdFeedResponse }),
    onSettled: () => client.invalidateQueries({ queryKey: ['admin', 'calendar-feeds'] }),
  });
}

export function useStopFeed() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.request('DELETE', `${STAFF}/${id}`),
    onSettled: () => client.invalidateQueries({ queryKey: ['admin', 'calendar-feeds'] }),
  });
}

export function useFamilyFeed() {
  return useQuery({
    queryKey: ['students', 'calendar-feed'],
    queryFn: ({ signal }) => api.get(FAMILY, { schema: familyFeedResponse, signal }),
  });
}

export function useCreateFamilyFeed() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post(FAMILY, undefined, { schema: createdFeedResponse }),
    onSettled: () => client.invalidateQueries({ queryKey: ['students', 'calendar-feed'] }),
  });
}
