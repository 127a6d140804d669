import { useQuery } from '@tanstack/react-query';
import {
  type SavedCardResponse,
  type SavedCardReturnResponse,
  savedCardResponse,
  savedCardReturnResponse,
} from '@tumble/contracts/autopay';
import { type CheckoutResponse, checkoutResponse } from '@tumble/contracts/booking';
import { api } from '../../api/client';

export const savedCardKey = ['students', 'saved-card'] as const;

/** GET /api/v1/students/saved-card: the family's saved card and the autopay switch. */
export function useSavedCard() {
  return useQuery({
    queryKey: savedCardKey,
    queryFn: ({ signal }) => api.get('/api/v1/students/saved-card', { schema: savedCardResponse, signal }),
  });
}

/** Opens the provider's "save a card" page (answered like a checkout). */
export function startCardSetup(): Promise<CheckoutResponse> {
  return api.post('/api/v1/students/saved-card/setup', {}, { schema: checkoutResponse });
}

/** Back from the provider's page: saves the card if the setup finished. */
export function cardSetupReturned(): Promise<SavedCardReturnResponse> {
  return api.post('/api/v1/students/saved-card/return', {}, { schema: savedCardReturnResponse });
}

export function setAutopay(autopay: boolean): Promise<SavedCardResponse> {
  return api.post('/api/v1/students/saved-card/autopay', { autopay }, { schema: savedCardResponse });
}

export function removeCard(): Promise<SavedCardResponse> {
  return api.post('/api/v1/students/saved-card/remove', {}, { schema: savedCardResponse });
}
