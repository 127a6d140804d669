import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type AccountingSettingsInput,
  accountingConnectResponse,
  accountingStatus,
  accountingSyncResponse,
} from '@tumble/contracts/accounting';
import { api } from '../../api/client';

const path = '/api/v1/admin/integrations/accounting';
const statusKey = ['admin', 'accounting'] as const;

/** GET the settings, the Xero connection, the last sync and the records Xero refused. */
export function useAccountingStatus() {
  return useQuery({
    queryKey: statusKey,
    queryFn: ({ signal }) => api.get(path, { schema: accountingStatus, signal }),
  });
}

/** POST the account codes and tax types; answers the page's new state. */
export function useSaveAccountingSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AccountingSettingsInput) => api.post(path, body, { schema: accountingStatus }),
    onSuccess: (status) => queryClient.setQueryData(statusKey, status),
  });
}

/** POST …/connect: the Xero login page to send the browser to. */
export function useConnectXero() {
  return useMutation({
    mutationFn: () => api.post(`${path}/connect`, {}, { schema: accountingConnectResponse }),
    onSuccess: ({ url }) => window.location.assign(url),
  });
}

export function useDisconnectXero() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post(`${path}/disconnect`, {}, { schema: accountingStatus }),
    onSuccess: (status) => queryClient.setQueryData(statusKey, status),
  });
}

/** POST …/sync: "Sync now"; the page reads the new state after it. */
export function useSyncNow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post(`${path}/sync`, {}, { schema: accountingSyncResponse }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: statusKey }),
  });
}

export const csvPath = (kind: string, from: string, to: string) =>
  `${path}/csv?${new URLSearchParams({ kind, from, to }).toString()}`;
