import { type MergeResult, mergeResult } from '@tumble/contracts/merge';
import { api } from '../../api/client';

/** POST /api/v1/admin/merge/families: `preview` shows what would move and changes nothing. */
export function mergeFamilies(body: { from_parent_id: number; to_parent_id: number; preview: boolean }) {
  return api.post('/api/v1/admin/merge/families', body, { schema: mergeResult }) as Promise<MergeResult>;
}

/** POST /api/v1/admin/merge/children: two children of one family. */
export function mergeChildren(body: { from_child_id: number; to_child_id: number; preview: boolean }) {
  return api.post('/api/v1/admin/merge/children', body, { schema: mergeResult }) as Promise<MergeResult>;
}
