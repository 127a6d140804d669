import { type InvitationResponse, invitationResponse } from '@tumble/contracts/booking';
import { api } from '../../../api/client';

export interface InvitationParams {
  authhash: string;
  w: string;
  e: string;
  b: string;
}

export function invitationCall(
  action: 'check' | 'accept' | 'decline',
  params: InvitationParams,
  signal?: AbortSignal,
): Promise<InvitationResponse> {
  return api.get(`/api/v1/events/wait-list/invitation/${action}`, {
    query: { ...params },
    schema: invitationResponse,
    signal,
  });
}
