import { z } from 'zod';

/**
 * The accounting export (SPEC integrations/accounting, page /admin/integrations/accounting): the
 * company's Xero connection, the account codes and tax types the ledger maps to, CSV downloads
 * and the API sync's state.
 */

/** A Xero account code as Xero allows it: up to 10 letters, digits or dashes. */
const accountCode = z
  .string()
  .trim()
  .regex(
    /^[A-Za-z0-9-]{1,10}$/,
    'Please enter an account code as it appears in Xero (up to 10 letters or digits).',
  );
/** A Xero tax type code, e.g. OUTPUT, EXEMPTOUTPUT, BASEXCLUDED. */
const taxType = z
  .string()
  .trim()
  .regex(/^[A-Z0-9_]{1,30}$/, 'Please enter a Xero tax type such as OUTPUT, EXEMPTOUTPUT or BASEXCLUDED.');
const isoDate = z.iso.date({ message: 'Please enter a date.' });

/** The Australian defaults (Xero's standard chart of accounts and AU tax types). */
export const accountingDefaults = {
  sales_account_code: '200',
  gst_free_sales_account_code: '200',
  card_account_code: '090',
  cash_account_code: '090',
  refund_account_code: '090',
  gst_tax_type: 'OUTPUT',
  gst_free_tax_type: 'EXEMPTOUTPUT',
  no_gst_tax_type: 'BASEXCLUDED',
} as const;

/** Xero's display names of the AU tax types: the CSV import names a rate by its name, the API by its code. */
export const xeroTaxTypeNames: Record<string, string> = {
  OUTPUT: 'GST on Income',
  EXEMPTOUTPUT: 'GST Free Income',
  BASEXCLUDED: 'BAS Excluded',
};

export const accountingSettingsInput = z.object({
  sales_account_code: accountCode,
  gst_free_sales_account_code: accountCode,
  card_account_code: accountCode,
  cash_account_code: accountCode,
  refund_account_code: accountCode,
  gst_tax_type: taxType,
  gst_free_tax_type: taxType,
  no_gst_tax_type: taxType,
  sync_from: isoDate.nullable(),
});
export type AccountingSettingsInput = z.infer<typeof accountingSettingsInput>;

export const accountingConnectionStates = [
  'not_configured',
  'not_connected',
  'connected',
  'expired',
] as const;
export type AccountingConnectionState = (typeof accountingConnectionStates)[number];

export const accountingConnectionLabels: Record<AccountingConnectionState, string> = {
  not_configured: 'Not connected',
  not_connected: 'Not connected',
  connected: 'Connected',
  expired: 'Connection expired',
};

export const accountingSyncKinds = ['contact', 'invoice', 'credit_note', 'payment', 'refund'] as const;
export const accountingSyncKindLabels: Record<(typeof accountingSyncKinds)[number], string> = {
  contact: 'Contact',
  invoice: 'Invoice',
  credit_note: 'Credit note',
  payment: 'Payment',
  refund: 'Refund',
};

export const accountingStatus = z.object({
  settings: accountingSettingsInput,
  connection: z.object({
    state: z.enum(accountingConnectionStates),
    /** The Xero organisation's name when connected. */
    organisation: z.string().nullable(),
    connected_at: z.string().nullable(),
    /** The installation has a Xero app (client id and secret); without one only the CSV works. */
    available: z.boolean(),
  }),
  last_sync_at: z.string().nullable(),
  last_error: z.string().nullable(),
  synced: z.number().int(),
  failed: z.array(
    z.object({
      kind: z.enum(accountingSyncKinds),
      /** What staff know it by: INV-000123, CN-000004, the family's name, "Payment on INV-000123". */
      label: z.string(),
      error: z.string(),
      updated_at: z.string(),
    }),
  ),
});
export type AccountingStatus = z.infer<typeof accountingStatus>;

export const accountingConnectResponse = z.object({ url: z.string() });

export const accountingSyncResponse = z.object({
  sent: z.number().int(),
  failed: z.number().int(),
  message: z.string(),
});
export type AccountingSyncResponse = z.infer<typeof accountingSyncResponse>;

export const accountingCsvKinds = ['invoices', 'credit-notes', 'payments'] as const;
export type AccountingCsvKind = (typeof accountingCsvKinds)[number];
export const accountingCsvLabels: Record<AccountingCsvKind, string> = {
  invoices: 'Invoices',
  'credit-notes': 'Credit notes',
  payments: 'Payments and refunds',
};

export const accountingCsvQuery = z
  .object({
    kind: z.enum(accountingCsvKinds, { message: 'Please choose invoices, credit notes or payments.' }),
    from: isoDate,
    to: isoDate,
  })
  .refine((q) => q.from <= q.to, {
    message: 'The start date must be on or before the end date.',
    path: ['to'],
  });
export type AccountingCsvQuery = z.infer<typeof accountingCsvQuery>;

export const accountingMessages = {
  notAvailable: 'Xero is not set up on this installation: download the CSV files and import them in Xero.',
  notConnected: 'Xero is not connected.',
  saved: 'Settings saved.',
  connected: 'Connected to Xero.',
  disconnected: 'Disconnected from Xero.',
  nothingToSend: 'Everything is already in Xero.',
} as const;
