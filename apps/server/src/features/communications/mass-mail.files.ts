import { type AttachmentResponse, MAX_ATTACHMENT_BYTES } from '@tumble/contracts/communications';
import type { AppDeps } from '../../platform/deps.ts';
import { BadRequestError } from '../../platform/errors.ts';
import { isFileKey, newFileKey } from '../../platform/files.ts';
import type { Tenant } from '../../platform/tenancy.ts';

/** Types by extension for the attached file (the mail client opens it by this). */
const TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  txt: 'text/plain',
  csv: 'text/csv',
  ics: 'text/calendar',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** The file's name without folders or control characters, and its lower-case extension. */
function cleanName(filename: string): { name: string; extension: string } {
  const last = filename.split(/[\\/]/).pop() ?? '';
  // No control characters or quotes: the name goes into the mail's headers.
  const name = [...last]
    .filter((c) => c.charCodeAt(0) >= 32 && c !== '"')
    .join('')
    .trim()
    .slice(0, 200);
  const extension = name.includes('.') ? (name.split('.').pop() ?? '').toLowerCase() : '';
  return { name: name || 'attachment', extension: /^[a-z0-9]{1,8}$/.test(extension) ? extension : 'bin' };
}

/** Stores a mass mail's attachment (private to the company) before the mail is sent. */
export async function storeAttachment(
  deps: AppDeps,
  tenant: Tenant,
  filename: string,
  data: Buffer,
): Promise<AttachmentResponse> {
  if (data.length === 0) throw new BadRequestError('Choose a file to attach.');
  if (data.length > MAX_ATTACHMENT_BYTES)
    throw new BadRequestError('The attachment must be 5 MB or smaller.');
  const { name, extension } = cleanName(filename);
  const key = newFileKey('private', tenant.companyId, extension);
  await deps.files.put(key, data);
  return { key, name, size: data.length };
}

/**
 * The attachment a new mail names, checked: a key of this company's that exists. `undefined` for
 * anything else (another company's key, a made-up one, a file gone).
 */
export async function attachmentOf(
  deps: AppDeps,
  tenant: Tenant,
  attachment: { key: string; name: string },
): Promise<{ key: string; name: string; type: string } | undefined> {
  const { key } = attachment;
  if (!isFileKey(key) || !key.startsWith(`private/${tenant.companyId}/`)) return undefined;
  if (!(await deps.files.get(key))) return undefined;
  const { name } = cleanName(attachment.name);
  const extension = key.split('.').pop() ?? '';
  return { key, name, type: TYPES[extension] ?? 'application/octet-stream' };
}
