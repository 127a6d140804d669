import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  integrationsResponse,
  type MailingAudienceInput,
  type MailingConnectInput,
  mailingAudiences,
  mailingConnectResponse,
  mailingStatus,
  mailingSyncResponse,
} from '@tumble/contracts/integrations';
import { api } from '../../api/client';

const path = '/api/v1/admin/integrations/mailing';
const statusKey = ['admin', 'mailing'] as const;
const audiencesKey = ['admin', 'mailing', 'audiences'] as const;

/** GET every outside connection of the company (the Integrations page). */
export function useIntegrations() {
  return useQuery({
    queryKey: ['admin', 'integrations'],
    queryFn: ({ signal }) => api.get('/api/v1/admin/integrations', { schema: integrationsResponse, signal }),
  });
}

/** GET the Mailchimp connection, its audience, the last sync and the families Mailchimp refused. */
export function useMailingStatus() {
  return useQuery({
    queryKey: statusKey,
    queryFn: ({ signal }) => api.get(path, { schema: mailingStatus, signal }),
  });
}

/** GET the Mailchimp account's audiences (only once connected). */
export function useMailingAudiences(enabled: boolean) {
  return useQuery({
    queryKey: audiencesKey,
    enabled,
    queryFn: ({ signal }) => api.get(`${path}/audiences`, { schema: mailingAudiences, signal }),
  });
}

/** POST …/connect with an API key; answers the page's new state. */
export function useConnectWithKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MailingConnectInput) => api.post(`${path}/connect`, body, { schema: mailingStatus }),
    onSuccess: (status) => {
      queryClient.setQueryData(statusKey, status);
      void queryClient.invalidateQueries({ queryKey: audiencesKey });
    },
  });
}

/** POST …/oauth: Mailchimp's login page to send the browser to. */
export function useConnectWithLogin() {
  return useMutation({
    mutationFn: () => api.post(`${path}/oauth`, {}, { schema: mailingConnectResponse }),
    onSuccess: ({ url }) => window.location.assign(url),
  });
}

export function useChooseAudience() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MailingAudienceInput) => api.post(`${path}/audience`, body, { schema: mailingStatus }),
    onSuccess: (status) => queryClient.setQueryData(statusKey, status),
  });
}

export function useDisconnectMailchimp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post(`${path}/disconnect`, {}, { schema: mailingStatus }),
    onSuccess: (status) => queryClient.setQueryData(statusKey, status),
  });
}

/** POST …/sync: "Sync now"; the page reads the new state after it. */
export function useSyncMailchimp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post(`${path}/sync`, {}, { schema: mailingSyncResponse }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: statusKey }),
  });
}
