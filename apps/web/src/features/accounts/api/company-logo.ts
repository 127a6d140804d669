import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { aclKeys } from '../../../api/acl';
import { api } from '../../../api/client';
import { accountKeys } from './keys';

const logoResponse = z.object({ logo: z.string() });

/** POST /api/v1/admin/my-company/logo, multipart 'file' → { logo } (its URL). */
export async function uploadCompanyLogo(file: File): Promise<string> {
  const body = new FormData();
  body.append('file', file);
  return (await api.post('/api/v1/admin/my-company/logo', body, { schema: logoResponse })).logo;
}

/** DELETE /api/v1/admin/my-company/logo → 204. */
export async function deleteCompanyLogo(): Promise<void> {
  await api.request('DELETE', '/api/v1/admin/my-company/logo');
}

/** Upload or remove the logo; the sidebar (from /rest/acl) shows the new one. */
export function useCompanyLogo() {
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: accountKeys.myCompany }),
      queryClient.invalidateQueries({ queryKey: aclKeys.all }),
    ]);
  return {
    upload: useMutation({ mutationFn: uploadCompanyLogo, onSuccess: refresh }),
    remove: useMutation({ mutationFn: deleteCompanyLogo, onSuccess: refresh }),
  };
}
