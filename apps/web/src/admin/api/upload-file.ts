import { uploadResponse } from '@tumble/contracts/resources';
import type { z } from 'zod';
import { api } from '../../api/client';
import { apiBase, type ResourceRef } from '../resource-ref';

export type UploadedFile = z.infer<typeof uploadResponse>;

/** POST <base>/upload, multipart field 'file' → { key, url, name }; the form stores the key. */
export function uploadResourceFile(ref: ResourceRef, file: File): Promise<UploadedFile> {
  const body = new FormData();
  body.append('file', file);
  return api.post(`${apiBase(ref)}/upload`, body, { schema: uploadResponse });
}
