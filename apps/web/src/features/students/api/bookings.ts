import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type MyBookings,
  type MyPartyBookings,
  type MyWaitlist,
  myBookingsResponse,
  myPartyBookingsResponse,
  myWaitlistResponse,
} from '@tumble/contracts/students';
import { api } from '../../../api/client';
import { studentKeys } from './keys';

/** GET /api/v1/students/my-bookings: the parent's event bookings, newest first. */
export function fetchMyBookings(signal?: AbortSignal): Promise<MyBookings> {
  return api.get('/api/v1/students/my-bookings', { schema: myBookingsResponse, signal });
}

export function useMyBookings() {
  return useQuery({ queryKey: studentKeys.myBookings, queryFn: ({ signal }) => fetchMyBookings(signal) });
}

/** GET /api/v1/students/my-party-bookings: the parent's party bookings, newest first. */
export function fetchMyPartyBookings(signal?: AbortSignal): Promise<MyPartyBookings> {
  return api.get('/api/v1/students/my-party-bookings', { schema: myPartyBookingsResponse, signal });
}

export function useMyPartyBookings() {
  return useQuery({
    queryKey: studentKeys.myPartyBookings,
    queryFn: ({ signal }) => fetchMyPartyBookings(signal),
  });
}

/** GET /api/v1/students/my-waitlist: the parent's open waitlist days, with their place in the queue. */
export function useMyWaitlist() {
  return useQuery({
    queryKey: studentKeys.myWaitlist,
    queryFn: ({ signal }): Promise<MyWaitlist> =>
      api.get('/api/v1/students/my-waitlist', { schema: myWaitlistResponse, signal }),
  });
}

/** POST /api/v1/students/my-waitlist/:id/leave: leaves the waitlist for that day. */
export function useLeaveWaitlist() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post(`/api/v1/students/my-waitlist/${id}/leave`, {}),
    onSettled: () => client.invalidateQueries({ queryKey: studentKeys.myWaitlist }),
  });
}
