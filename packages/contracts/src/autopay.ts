import { z } from 'zod';

/** The page a parent saves a card on; failure mails link here (after sign-in). */
export const SAVED_CARD_PATH = '/admin/students/card';

export const AUTOPAY_LABEL = 'Pay my invoices and instalments automatically on their due date';

/** GET /api/v1/students/saved-card: the family's saved card (null: none) and whether autopay is on. */
export const savedCardResponse = z.object({
  card: z
    .object({
      brand: z.string(),
      last4: z.string(),
      exp_month: z.number(),
      exp_year: z.number(),
    })
    .nullable(),
  autopay: z.boolean(),
});
export type SavedCardResponse = z.infer<typeof savedCardResponse>;

/** POST /api/v1/students/saved-card/autopay: turns autopay on or off (on needs a saved card). */
export const autopayRequest = z.object({
  autopay: z.boolean({ error: 'Choose whether to pay automatically.' }),
});
export type AutopayRequest = z.infer<typeof autopayRequest>;

export const NO_CARD_FOR_AUTOPAY = 'Save a card first to pay automatically.';

/**
 * POST /api/v1/students/saved-card/return: the parent is back from the provider's page; `saved`
 * says whether the card of their newest setup is now on the account (false: not finished).
 */
export const savedCardReturnResponse = savedCardResponse.extend({ saved: z.boolean() });
export type SavedCardReturnResponse = z.infer<typeof savedCardReturnResponse>;

/** "Visa •••• 4242, expires 03/2028" */
export function describeCard(card: { brand: string; last4: string; exp_month: number; exp_year: number }) {
  const brand = card.brand ? card.brand[0]!.toUpperCase() + card.brand.slice(1) : 'Card';
  return `${brand} •••• ${card.last4}, expires ${String(card.exp_month).padStart(2, '0')}/${card.exp_year}`;
}
