import { z } from 'zod';

const id = z.coerce.number().int().positive().max(2_147_483_647);

/** Merge a duplicate family (`from_parent_id`) into the kept one; `preview` changes nothing. */
export const mergeFamiliesRequest = z.object({
  from_parent_id: id,
  to_parent_id: id,
  preview: z.boolean().default(false),
});

/** Merge a child entered twice (`from_child_id`) into the kept child of the same family. */
export const mergeChildrenRequest = z.object({
  from_child_id: id,
  to_child_id: id,
  preview: z.boolean().default(false),
});

/** Rows per table that moved (or would move), and what the merge decides, in words. */
export const mergeResult = z.object({
  moved: z.record(z.string(), z.number().int()),
  notes: z.array(z.string()),
});
export type MergeResult = z.infer<typeof mergeResult>;
