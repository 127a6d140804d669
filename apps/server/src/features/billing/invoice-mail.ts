import { formatBsb } from '@tumble/contracts/invoices';
import type { Db } from '../../db/client.ts';
import type { AppDeps } from '../../platform/deps.ts';
import { BadRequestError, NotFoundError } from '../../platform/errors.ts';
import { queueMail } from '../../platform/mail/mail.service.ts';
import { formatMoney } from '../../platform/money.ts';
import type { Tenant } from '../../platform/tenancy.ts';
import { displayDate } from '../../platform/time.ts';
import { companyOf } from '../accounts/accounts.service.ts';
import { billingProfileOf, invoiceWithLines } from './ledger.service.ts';

/** Where a parent pays an invoice online (the payments page; it asks them to sign in first). */
export function invoicePayLink(publicUrl: string, invoiceId: number, authhash: string): string {
  return `${publicUrl}/admin/student/payment?${new URLSearchParams({ invoice: String(invoiceId), authhash })}`;
}

/**
 * The invoice's PDF for the parent: a page of the app that signs them in, then downloads it (files
 * need the session token, so a mail cannot link to the API itself).
 */
export function invoicePdfLink(publicUrl: string, invoiceId: number, authhash: string): string {
  return `${publicUrl}/admin/students/invoices/${invoiceId}/pdf?${new URLSearchParams({ authhash })}`;
}

/** "Bank transfer: Tumble Gym Pty Ltd, BSB 062-000, account 12345678, reference INV-000123", or ''. */
export function bankDetailsText(
  profile: { bankAccountName: string | null; bsb: string | null; bankAccountNumber: string | null },
  reference: string,
): string {
  if (!profile.bsb || !profile.bankAccountNumber) return '';
  const name = profile.bankAccountName ? `${profile.bankAccountName}, ` : '';
  return `${name}BSB ${formatBsb(profile.bsb)}, account ${profile.bankAccountNumber}, reference ${reference}`;
}

/**
 * Queues the invoice mail to the family inside the caller's transaction (the term billing run calls
 * it for every invoice it issues; staff "Email to the family" too): number, total, due date, links
 * to the PDF and to pay online, and the bank details. A draft or void invoice is refused.
 */
export async function queueInvoiceMail(
  deps: AppDeps,
  tx: Db,
  tenant: Tenant,
  invoiceId: number,
): Promise<void> {
  const found = await invoiceWithLines(tx, tenant, invoiceId);
  if (!found) throw new NotFoundError();
  const { invoice } = found;
  if (invoice.status === 'draft' || invoice.status === 'void' || !invoice.code)
    throw new BadRequestError('Only an issued invoice can be emailed.');
  const [company, profile] = await Promise.all([companyOf(tx, tenant), billingProfileOf(tx, tenant)]);
  const bank = bankDetailsText(profile, invoice.code);
  const owing = invoice.total - invoice.amountPaid - invoice.amountCredited;
  await queueMail(tx, tenant, deps.config, 'invoice', invoice.buyerEmail, {
    name: invoice.buyerName,
    company: profile.legalName,
    document: invoice.gstRegistered ? 'tax invoice' : 'invoice',
    number: invoice.code,
    total: formatMoney(invoice.total, company.currency),
    balance: formatMoney(Math.max(0, owing), company.currency),
    due: invoice.dueOn ? displayDate(invoice.dueOn) : '',
    pdf_link: invoicePdfLink(deps.config.publicUrl, invoice.id, company.authhash),
    pay_link: invoicePayLink(deps.config.publicUrl, invoice.id, company.authhash),
    bank: bank ? `Or pay by bank transfer: ${bank}.` : '',
    late_fee: profile.lateFeePolicy ?? '',
  });
}
