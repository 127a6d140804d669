import { useQuery } from '@tanstack/react-query';
import {
  type MyBookings,
  type MyPartyBookings,
  myBookingsResponse,
  myPartyBookingsResponse,
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
