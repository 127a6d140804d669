import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.ts';
import type { Tenant } from '../../../platform/tenancy.ts';
import { creditNotes } from '../ledger.tables.ts';
import { accountingSyncItems } from './accounting.tables.ts';
import {
  type AccountingExport,
  dollars,
  type ExportContact,
  type ExportCreditNote,
  type ExportInvoice,
  type ExportLine,
  type ExportPayment,
  type ExportRefund,
} from './accounting-export.ts';
import { type XeroClient, XeroError } from './xero-client.ts';

type Kind = (typeof accountingSyncItems.$inferSelect)['kind'];
type Item = typeof accountingSyncItems.$inferSelect;

/** The access token in use, refreshed by the caller (accounting.service) before it runs out. */
export interface XeroSession {
  tenantId: string;
  accessToken(): Promise<string>;
  /** After a 401: a fresh access token (the refresh token rotates). */
  renew(): Promise<string>;
}

/** A record that cannot be sent until another one has reached Xero. */
class Waiting extends Error {}

const cents = (amount: number | undefined) => Math.round((amount ?? 0) * 100);

/**
 * The API adapter: pushes each ledger record to Xero's Accounting API once. What reached Xero is
 * kept in accounting_sync_items (local kind + id → Xero's id); each create carries an
 * Idempotency-Key made of the company, the record and what is sent, so a retry after a crash
 * between Xero's answer and our write does not make a second invoice.
 *
 * - contact: POST /Contacts (creates, or finds the contact of that name), ContactNumber TUMBLE-<id>.
 * - invoice: PUT /Invoices, ACCREC, AUTHORISED, our number, GST-inclusive lines with our GST as
 *   TaxAmount; voided later: POST /Invoices/{id} with Status VOIDED.
 * - credit note: PUT /CreditNotes (ACCRECCREDIT), then PUT /CreditNotes/{id}/Allocations for as much
 *   as Xero's invoice still has due; the rest stays as the family's credit in Xero.
 * - payment (one allocation of a payment to an invoice): PUT /Payments on the invoice.
 * - refund to the card: Xero pays refunds out of a credit note: PUT /Payments on a credit note of
 *   that invoice with unallocated credit (staff issue one when the family no longer owes it).
 */
export class XeroSync implements AccountingExport {
  sent = 0;
  failed = 0;

  constructor(
    private readonly db: Db,
    private readonly tenant: Tenant,
    private readonly client: XeroClient,
    private readonly session: XeroSession,
  ) {}

  private key(kind: string, id: number | string, what = '') {
    return `tumble-${this.tenant.companyId}-${kind}-${id}${what ? `-${what}` : ''}`;
  }

  private async item(kind: Kind, localId: number): Promise<Item | undefined> {
    const [item] = await this.db
      .select()
      .from(accountingSyncItems)
      .where(
        this.tenant.where(
          accountingSyncItems,
          eq(accountingSyncItems.kind, kind),
          eq(accountingSyncItems.localId, localId),
        ),
      );
    return item;
  }

  private async record(
    kind: Kind,
    localId: number,
    values: {
      status: Item['status'];
      xeroId?: string | null;
      sent?: string | null;
      detail?: Item['detail'];
      error?: string | null;
    },
  ) {
    const set = { ...values, error: values.error ?? null, updatedAt: sql`now()` };
    await this.db
      .insert(accountingSyncItems)
      .values(this.tenant.values({ kind, localId, ...set, attempts: 1 }))
      .onConflictDoUpdate({
        target: [accountingSyncItems.companyId, accountingSyncItems.kind, accountingSyncItems.localId],
        set: { ...set, attempts: sql`${accountingSyncItems.attempts} + 1` },
      });
  }

  /** Runs one record's push; a Xero refusal or a wait is stored as that record's error, never thrown. */
  private async attempt(kind: Kind, localId: number, push: () => Promise<void>) {
    try {
      await push();
      this.sent++;
    } catch (error) {
      if (!(error instanceof XeroError) && !(error instanceof Waiting)) throw error;
      this.failed++;
      const existing = await this.item(kind, localId);
      await this.record(kind, localId, {
        status: 'failed',
        xeroId: existing?.xeroId ?? null,
        sent: existing?.sent ?? null,
        detail: existing?.detail ?? null,
        error: error.message,
      });
    }
  }

  /** One Accounting API call with the current token; a 401 renews the token once and tries again. */
  private async call<T>(method: 'GET' | 'PUT' | 'POST', resource: string, body?: object, key?: string) {
    const tenantId = this.session.tenantId;
    try {
      return await this.client.accounting<T>(
        { accessToken: await this.session.accessToken(), tenantId },
        method,
        resource,
        body,
        key,
      );
    } catch (error) {
      if (!(error instanceof XeroError) || error.status !== 401) throw error;
      return this.client.accounting<T>(
        { accessToken: await this.session.renew(), tenantId },
        method,
        resource,
        body,
        key,
      );
    }
  }

  private lineItems(lines: ExportLine[]) {
    return lines.map((line) => ({
      Description: line.description,
      Quantity: line.quantity,
      UnitAmount: Number(dollars(line.unitAmount)),
      LineAmount: Number(dollars(line.amount)),
      AccountCode: line.accountCode,
      TaxType: line.taxType,
      TaxAmount: Number(dollars(line.gst)),
    }));
  }

  /** The family's Xero contact id, made the first time it is needed. */
  private async contactId(contact: ExportContact): Promise<string> {
    const existing = await this.item('contact', contact.parentId);
    if (existing?.status === 'synced' && existing.xeroId) return existing.xeroId;
    let contactId = '';
    await this.attempt('contact', contact.parentId, async () => {
      const answer = await this.call<{ Contacts: { ContactID: string }[] }>(
        'POST',
        'Contacts',
        {
          Contacts: [
            { Name: contact.name, EmailAddress: contact.email, ContactNumber: `TUMBLE-${contact.parentId}` },
          ],
        },
        this.key('contact', contact.parentId),
      );
      contactId = answer.Contacts[0]!.ContactID;
      await this.record('contact', contact.parentId, { status: 'synced', xeroId: contactId });
    });
    if (!contactId) throw new Waiting(`Waiting for the contact ${contact.name} to reach Xero.`);
    return contactId;
  }

  private async invoiceId(invoiceId: number, code: string): Promise<string> {
    const item = await this.item('invoice', invoiceId);
    if (item?.status !== 'synced' || !item.xeroId)
      throw new Waiting(`Waiting for invoice ${code} to reach Xero.`);
    return item.xeroId;
  }

  async invoice(invoice: ExportInvoice): Promise<void> {
    await this.attempt('invoice', invoice.id, async () => {
      const existing = await this.item('invoice', invoice.id);
      if (invoice.status === 'VOIDED') {
        if (!existing?.xeroId) return;
        await this.call(
          'POST',
          `Invoices/${existing.xeroId}`,
          { Invoices: [{ InvoiceID: existing.xeroId, Status: 'VOIDED' }] },
          this.key('invoice', invoice.id, 'voided'),
        );
        await this.record('invoice', invoice.id, {
          status: 'synced',
          xeroId: existing.xeroId,
          sent: 'VOIDED',
        });
        return;
      }
      const contactId = await this.contactId(invoice.contact);
      const answer = await this.call<{ Invoices: { InvoiceID: string }[] }>(
        'PUT',
        'Invoices',
        {
          Invoices: [
            {
              Type: 'ACCREC',
              Contact: { ContactID: contactId },
              InvoiceNumber: invoice.code,
              Date: invoice.date,
              DueDate: invoice.dueDate,
              LineAmountTypes: 'Inclusive',
              Status: 'AUTHORISED',
              LineItems: this.lineItems(invoice.lines),
            },
          ],
        },
        this.key('invoice', invoice.id),
      );
      await this.record('invoice', invoice.id, {
        status: 'synced',
        xeroId: answer.Invoices[0]!.InvoiceID,
        sent: 'AUTHORISED',
      });
    });
  }

  async creditNote(note: ExportCreditNote): Promise<void> {
    await this.attempt('credit_note', note.id, async () => {
      const invoiceId = await this.invoiceId(note.invoiceId, note.invoiceCode);
      const existing = await this.item('credit_note', note.id);
      let creditNoteId = existing?.xeroId;
      if (!creditNoteId) {
        const answer = await this.call<{ CreditNotes: { CreditNoteID: string }[] }>(
          'PUT',
          'CreditNotes',
          {
            CreditNotes: [
              {
                Type: 'ACCRECCREDIT',
                Contact: { ContactID: await this.contactId(note.contact) },
                CreditNoteNumber: note.code,
                Reference: note.invoiceCode,
                Date: note.date,
                LineAmountTypes: 'Inclusive',
                Status: 'AUTHORISED',
                LineItems: this.lineItems(note.lines),
              },
            ],
          },
          this.key('credit-note', note.id),
        );
        creditNoteId = answer.CreditNotes[0]!.CreditNoteID;
        // Kept before the allocation: a failed allocation is retried without a second credit note.
        await this.record('credit_note', note.id, {
          status: 'failed',
          xeroId: creditNoteId,
          sent: 'AUTHORISED',
        });
      }
      const read = await this.call<{ Invoices: { AmountDue?: number }[] }>('GET', `Invoices/${invoiceId}`);
      const allocated = Math.min(note.amount, cents(read.Invoices[0]?.AmountDue));
      if (allocated > 0)
        await this.call(
          'PUT',
          `CreditNotes/${creditNoteId}/Allocations`,
          {
            Allocations: [
              { Amount: Number(dollars(allocated)), Date: note.date, Invoice: { InvoiceID: invoiceId } },
            ],
          },
          this.key('credit-note', note.id, 'allocation'),
        );
      await this.record('credit_note', note.id, {
        status: 'synced',
        xeroId: creditNoteId,
        sent: 'ALLOCATED',
        detail: { unallocated: note.amount - allocated },
      });
    });
  }

  async payment(payment: ExportPayment): Promise<void> {
    await this.attempt('payment', payment.id, async () => {
      const invoiceId = await this.invoiceId(payment.invoiceId, payment.invoiceCode);
      const answer = await this.call<{ Payments: { PaymentID: string }[] }>(
        'PUT',
        'Payments',
        {
          Payments: [
            {
              Invoice: { InvoiceID: invoiceId },
              Account: { Code: payment.accountCode },
              Date: payment.date,
              Amount: Number(dollars(payment.amount)),
              Reference: payment.reference || `${payment.method} payment ${payment.paymentId}`,
            },
          ],
        },
        this.key('payment', payment.id),
      );
      await this.record('payment', payment.id, { status: 'synced', xeroId: answer.Payments[0]!.PaymentID });
    });
  }

  async refund(refund: ExportRefund): Promise<void> {
    await this.attempt('refund', refund.id, async () => {
      const note = await this.creditFor(refund);
      const answer = await this.call<{ Payments: { PaymentID: string }[] }>(
        'PUT',
        'Payments',
        {
          Payments: [
            {
              CreditNote: { CreditNoteID: note.xeroId },
              Account: { Code: refund.accountCode },
              Date: refund.date,
              Amount: Number(dollars(refund.amount)),
              Reference: `Refund: ${refund.reason}`.slice(0, 255),
            },
          ],
        },
        this.key('refund', refund.id),
      );
      await this.db
        .update(accountingSyncItems)
        .set({ detail: { unallocated: (note.detail?.unallocated ?? 0) - refund.amount } })
        .where(this.tenant.byId(accountingSyncItems, note.id));
      await this.record('refund', refund.id, {
        status: 'synced',
        xeroId: answer.Payments[0]!.PaymentID,
        detail: { creditNoteId: note.xeroId! },
      });
    });
  }

  /** A credit note of the refund's invoice, in Xero, with enough credit left to pay the refund from. */
  private async creditFor(refund: ExportRefund) {
    const notes = await this.db
      .select()
      .from(accountingSyncItems)
      .where(
        this.tenant.where(
          accountingSyncItems,
          eq(accountingSyncItems.kind, 'credit_note'),
          eq(accountingSyncItems.status, 'synced'),
          inArray(
            accountingSyncItems.localId,
            this.db
              .select({ id: creditNotes.id })
              .from(creditNotes)
              .where(this.tenant.where(creditNotes, eq(creditNotes.invoiceId, refund.invoiceId))),
          ),
          sql`(${accountingSyncItems.detail}->>'unallocated')::int >= ${refund.amount}`,
        ),
      )
      .orderBy(accountingSyncItems.localId)
      .limit(1);
    const note = notes[0];
    if (!note?.xeroId)
      throw new Waiting(
        `Waiting for a credit note on ${refund.invoiceCode}: Xero pays a refund out of a credit note, so issue one for the amount refunded.`,
      );
    return note;
  }
}
