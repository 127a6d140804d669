import { z } from 'zod';

/**
 * A company's data (issue 18): the whole export as a zip, and erasing one family on request.
 */

/** The word typed to confirm an erasure: the page asks for it exactly. */
export const eraseConfirmationWord = 'ERASE';

export const eraseFamilyRequest = z.object({
  confirmation: z.string().max(50),
  reason: z.string().trim().min(1, 'Say why the family is erased.').max(500),
});
export type EraseFamilyRequest = z.infer<typeof eraseFamilyRequest>;

export const eraseFamilyResponse = z.object({
  /** The placeholder the family is now shown as: "Erased family 123". */
  name: z.string(),
});
export type EraseFamilyResponse = z.infer<typeof eraseFamilyResponse>;

export const companyDataMessages = {
  confirmation: `Type ${eraseConfirmationWord} to confirm.`,
  balance: 'This family owes money. Settle or write off its balance first.',
  upcoming: 'This family has upcoming bookings or class places. Cancel them first.',
  erased: 'This family has already been erased.',
} as const;

/** Where the export downloads from (a plain link: the browser streams it to disk). */
export const companyExportPath = '/api/v1/admin/company-data/export';
