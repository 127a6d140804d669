import { useQuery } from '@tanstack/react-query';
import {
  emailSettingsView,
  mailPreview,
  type SystemEmailWording,
  systemEmailList,
  testMailSent,
} from '@tumble/contracts/email-settings';
import { messages } from '@tumble/contracts/messages';
import { ApiError, api } from '../../api/client';

export const systemEmailsKey = ['system-emails'] as const;
export const emailSettingsKey = ['email-settings'] as const;

export const useSystemEmails = () =>
  useQuery({
    queryKey: systemEmailsKey,
    queryFn: ({ signal }) => api.get('/api/v1/admin/system-emails', { schema: systemEmailList, signal }),
  });

export const useEmailSettings = () =>
  useQuery({
    queryKey: emailSettingsKey,
    queryFn: ({ signal }) => api.get('/api/v1/admin/email-settings', { schema: emailSettingsView, signal }),
  });

const kindPath = (kind: string) => `/api/v1/admin/system-emails/${encodeURIComponent(kind)}`;

export const saveWording = (kind: string, wording: SystemEmailWording) =>
  api.post(kindPath(kind), wording, { schema: systemEmailList });
export const resetWording = (kind: string) =>
  api.request('DELETE', kindPath(kind), { schema: systemEmailList });
export const previewWording = (kind: string, wording: SystemEmailWording) =>
  api.post(`${kindPath(kind)}/preview`, wording, { schema: mailPreview });
export const sendWordingTest = (kind: string, wording: SystemEmailWording) =>
  api.post(`${kindPath(kind)}/test`, wording, { schema: testMailSent });
export const sendSettingsTest = () =>
  api.post('/api/v1/admin/email-settings/test', {}, { schema: testMailSent });

/** The server's message for a refused call, or the general one. */
export function failureText(error: unknown): string {
  return error instanceof ApiError
    ? (error.serverMessage ?? messages.communicationError)
    : messages.communicationError;
}
