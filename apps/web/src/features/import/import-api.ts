import {
  type ImportMapping,
  importColumnsResponse,
  importDryRunResponse,
  importRunView,
} from '@tumble/contracts/import';
import { api } from '../../api/client';

/** The file (and, after the upload, the mapping) as the import routes read them. */
function body(file: File, mapping?: ImportMapping) {
  const form = new FormData();
  if (mapping) form.append('mapping', JSON.stringify(mapping));
  form.append('file', file);
  return form;
}

export const readColumns = (file: File) =>
  api.post('/api/v1/admin/import/columns', body(file), { schema: importColumnsResponse });

export const checkFile = (file: File, mapping: ImportMapping) =>
  api.post('/api/v1/admin/import/dry-run', body(file, mapping), { schema: importDryRunResponse });

export const startImport = (file: File, mapping: ImportMapping) =>
  api.post('/api/v1/admin/import/runs', body(file, mapping), { schema: importRunView });

export const importRun = (id: number, signal?: AbortSignal) =>
  api.get(`/api/v1/admin/import/runs/${id}`, { schema: importRunView, signal });
