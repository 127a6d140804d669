import { z } from 'zod';

/** Flags applied to children and families (SPEC flags, issue 17). */

const id = (message: string) =>
  z.coerce.number({ error: message }).int(message).positive(message).max(2_147_483_647, message);

/** One flag on a child or a family: what it is, who applied it and when. */
export const appliedFlag = z.object({
  id: z.number(),
  flag_id: z.number(),
  name: z.string(),
  kind: z.string(),
  colour: z.string(),
  show_on_roll: z.boolean(),
  note: z.string().nullable(),
  /** Exactly one of child_id and parent_id: a family's flag shows on each of its children. */
  child_id: z.number().nullable(),
  parent_id: z.number().nullable(),
  /** "Ruby Walker" or "The Walker family (Jane Walker)". */
  target: z.string(),
  applied_by: z.string(),
  applied_at: z.string(),
});
export type AppliedFlag = z.infer<typeof appliedFlag>;

/** GET /api/v1/admin/flagged?child_id=&parent_id=: the flags applied (all of them without a filter). */
export const appliedFlagsQuery = z.object({
  child_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  parent_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});
export const appliedFlagsResponse = z.object({ flags: z.array(appliedFlag) });
export type AppliedFlagsResponse = z.infer<typeof appliedFlagsResponse>;

/** GET /api/v1/admin/flagged/options: the company's flags, children and families to choose from. */
export const flagOptionsResponse = z.object({
  flags: z.array(z.object({ value: z.string(), label: z.string(), colour: z.string() })),
  children: z.array(z.object({ value: z.string(), label: z.string() })),
  families: z.array(z.object({ value: z.string(), label: z.string() })),
});
export type FlagOptionsResponse = z.infer<typeof flagOptionsResponse>;

/** POST /api/v1/admin/flagged: apply a flag to a child or to a family. */
export const applyFlagRequest = z
  .object({
    flag_id: id('Choose a flag.'),
    child_id: id('Choose a child or a family.').nullish(),
    parent_id: id('Choose a child or a family.').nullish(),
    note: z.string().trim().max(500, 'Keep the note under 500 characters.').nullish(),
  })
  .refine((v) => (v.child_id ? 1 : 0) + (v.parent_id ? 1 : 0) === 1, {
    message: 'Choose a child or a family.',
    path: ['child_id'],
  });
export type ApplyFlagRequest = z.input<typeof applyFlagRequest>;

/** A flag as the roll shows it next to a child: a coloured dot, its name, the note as its tooltip. */
export const rollFlag = z.object({ name: z.string(), colour: z.string(), note: z.string().nullable() });
export type RollFlag = z.infer<typeof rollFlag>;
