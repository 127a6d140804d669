import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  type AudienceFilterInput,
  attachmentResponse,
  audienceOptionsResponse,
  audienceResponse,
  massMailDetailResponse,
  massMailsResponse,
  type NewMassMailRequest,
  unsubscribeResponse,
} from '@tumble/contracts/communications';
import { formResponse } from '@tumble/contracts/http';
import { api } from '../../api/client';

export function useAudienceOptions() {
  return useQuery({
    queryKey: ['communications', 'options'],
    queryFn: ({ signal }) =>
      api.get('/api/v1/communications/options', { schema: audienceOptionsResponse, signal }),
  });
}

/** The live count and families for a filter (the caller debounces the filter). */
export function useAudience(filter: AudienceFilterInput, marketing: boolean) {
  return useQuery({
    queryKey: ['communications', 'audience', filter, marketing],
    queryFn: ({ signal }) =>
      api.post(
        '/api/v1/communications/audience',
        { filter, marketing },
        { schema: audienceResponse, signal },
      ),
    placeholderData: keepPreviousData,
  });
}

export function uploadAttachment(file: File) {
  const body = new FormData();
  body.append('file', file);
  return api.post('/api/v1/communications/attachments', body, { schema: attachmentResponse });
}

export function createMassMail(body: NewMassMailRequest) {
  return api.post('/api/v1/communications/mass-mails', body, { schema: formResponse });
}

export function useMassMails() {
  return useQuery({
    queryKey: ['communications', 'mass-mails'],
    queryFn: ({ signal }) =>
      api.get('/api/v1/communications/mass-mails', { schema: massMailsResponse, signal }),
  });
}

/** One mass mail's progress; polled every 2 s while it is being sent. */
export function useMassMail(id: number) {
  return useQuery({
    queryKey: ['communications', 'mass-mails', id],
    queryFn: ({ signal }) =>
      api.get(`/api/v1/communications/mass-mails/${id}`, { schema: massMailDetailResponse, signal }),
    refetchInterval: (query) => {
      const mail = query.state.data;
      if (!mail) return false;
      const delivering = mail.recipients.some((r) => r.status === 'waiting' || r.status === 'queued');
      return mail.status === 'scheduled' || mail.status === 'sending' || delivering ? 2000 : false;
    },
  });
}

export function cancelMassMail(id: number) {
  return api.post(`/api/v1/communications/mass-mails/${id}/cancel`);
}

export function unsubscribe(token: string) {
  return api.post(`/api/v1/public/unsubscribe/${encodeURIComponent(token)}`, undefined, {
    schema: unsubscribeResponse,
  });
}
