import { useQuery } from '@tanstack/react-query';
import {
  type ContactRequest,
  type ContactsQuery,
  type ConvertRequest,
  type CrmSettingsRequest,
  contactResponse,
  contactsResponse,
  convertResponse,
  crmSettingsResponse,
  type EnquiryRequest,
} from '@tumble/contracts/crm';
import { formResponse } from '@tumble/contracts/http';
import { api } from '../../api/client';

/** Contacts (enquiries and leads), settings/crm and the public enquiry (issue 16). */

export function useContacts(query: ContactsQuery) {
  return useQuery({
    queryKey: ['admin', 'contacts', query],
    queryFn: ({ signal }) =>
      api.get('/api/v1/admin/contacts', {
        schema: contactsResponse,
        query: Object.fromEntries(Object.entries(query).filter(([, v]) => v)),
        signal,
      }),
  });
}

export function useContact(id: number) {
  return useQuery({
    queryKey: ['admin', 'contacts', id],
    queryFn: ({ signal }) => api.get(`/api/v1/admin/contacts/${id}`, { schema: contactResponse, signal }),
  });
}

export function createContact(body: ContactRequest) {
  return api.post('/api/v1/admin/contacts', body, { schema: formResponse });
}

export function updateContact(id: number, body: ContactRequest) {
  return api.request('PUT', `/api/v1/admin/contacts/${id}`, { body, schema: formResponse });
}

export function addNote(id: number, body: { body: string }) {
  return api.post(`/api/v1/admin/contacts/${id}/notes`, body, { schema: formResponse });
}

export function convertContact(id: number, body: ConvertRequest) {
  return api.post(`/api/v1/admin/contacts/${id}/convert`, body, { schema: convertResponse });
}

export function linkContact(id: number, parentId: number) {
  return api.post(`/api/v1/admin/contacts/${id}/link`, { parent_id: parentId }, { schema: convertResponse });
}

export function useCrmSettings() {
  return useQuery({
    queryKey: ['admin', 'settings', 'crm'],
    queryFn: ({ signal }) => api.get('/api/v1/admin/settings/crm', { schema: crmSettingsResponse, signal }),
  });
}

export function saveCrmSettings(body: CrmSettingsRequest) {
  return api.request('PUT', '/api/v1/admin/settings/crm', { body, schema: formResponse });
}

export function postEnquiry(authhash: string, f: string, body: EnquiryRequest) {
  return api.post('/api/v1/registration/enquiry', body, { schema: formResponse, query: { authhash, f } });
}
