import type { InvoiceDetail } from '@tumble/contracts/invoices';
import { describe, expect, it } from 'vitest';
import { renderPdf } from '../../platform/pdf.ts';
import { creditNoteDocument, type InvoicePdfContext, invoiceDocument } from './invoice-pdf.ts';

const invoice: InvoiceDetail = {
  id: 7,
  code: 'INV-000042',
  kind: 'term',
  status: 'part_paid',
  parent_id: 3,
  family: 'Pat Parent',
  email: 'pat@example.test',
  issued_on: '2030-02-01',
  due_on: '2030-02-15',
  total: 23_000,
  gst: 2_000,
  paid: 5_000,
  credited: 2_200,
  balance: 15_800,
  term_id: 1,
  gst_registered: true,
  notes: '',
  void_reason: '',
  created_at: '2030-02-01T00:00:00.000Z',
  lines: [
    {
      description: 'Gym Stars (Mon 4pm)',
      detail: '10 sessions × $22.00 · not charged: 26 Jan (Australia Day)',
      quantity: 1,
      unit_amount: 22_000,
      amount: 22_000,
      gst: 2_000,
      gst_free: false,
    },
    {
      description: 'Swim safety',
      detail: '',
      quantity: 2,
      unit_amount: 500,
      amount: 1_000,
      gst: 0,
      gst_free: true,
    },
  ],
  allocations: [{ date: '2030-02-03', description: 'Payment (Cash, R-17)', amount: 5_000 }],
  credit_notes: [
    {
      id: 1,
      code: 'CN-000001',
      issued_on: '2030-02-04',
      amount: 2_200,
      gst: 200,
      reason: 'Sick week',
    },
  ],
  currency: 'AUD',
};

const context: InvoicePdfContext = {
  profile: {
    legalName: 'Tumble Gym Pty Ltd',
    abn: '51824753556',
    address: '1 Spring St, Sydney NSW 2000',
    bankAccountName: 'Tumble Gym Pty Ltd',
    bsb: '062000',
    bankAccountNumber: '12345678',
    lateFeePolicy: 'A $10 late fee applies 7 days after the due date.',
  },
  payLink: 'https://app.example/admin/student/payment?invoice=7&authhash=demo',
};

/** Every piece of text the document prints, in order. */
function texts(doc: ReturnType<typeof invoiceDocument>): string[] {
  return [
    doc.title,
    doc.subtitle ?? '',
    ...doc.sections.flatMap((s) => [
      s.heading ?? '',
      ...(s.rows ?? []).map(([label, value]) => `${label}: ${value}`),
      s.text ?? '',
      ...(s.table?.columns.map((c) => c.label) ?? []),
      ...(s.table?.rows.flatMap((r) => [r.cells.join(' | '), r.note ?? '']) ?? []),
    ]),
    doc.footer ?? '',
  ].filter(Boolean);
}

describe('the tax invoice document (ATO rules)', () => {
  it('says "Tax invoice" with the supplier’s ABN, GST per line and "Total price includes GST"', () => {
    const printed = texts(invoiceDocument(invoice, context));
    expect(printed[0]).toBe('Tax invoice');
    expect(printed).toContain('From: Tumble Gym Pty Ltd');
    expect(printed).toContain('ABN: 51 824 753 556');
    expect(printed).toContain('Tax invoice number: INV-000042');
    expect(printed).toContain('Date of issue: 01/02/2030');
    expect(printed).toContain('Due date: 15/02/2030');
    expect(printed).toContain('Bill to: Pat Parent <pat@example.test>');
    expect(printed).toContain('Gym Stars (Mon 4pm) | 1 | $220.00 | $20.00 | $220.00');
    expect(printed).toContain('10 sessions × $22.00 · not charged: 26 Jan (Australia Day)');
    expect(printed).toContain('Total price includes GST of | $20.00');
    expect(printed).toContain('Payment (Cash, R-17), 03/02/2030 | -$50.00');
    expect(printed).toContain('Credit note CN-000001, 04/02/2030 | -$22.00');
    expect(printed).toContain('Balance due | $158.00');
  });

  it('marks GST-free lines and prints no GST on them', () => {
    const printed = texts(invoiceDocument(invoice, context));
    expect(printed).toContain('Swim safety (GST-free) | 2 | $5.00 | GST-free | $10.00');
    expect(printed).toContain('Items marked GST-free have no GST in their price.');
  });

  it('says "Invoice" with no GST column when the supplier is not registered for GST', () => {
    const doc = invoiceDocument(
      { ...invoice, gst_registered: false, gst: 0, lines: invoice.lines.map((l) => ({ ...l, gst: 0 })) },
      { ...context, profile: { ...context.profile, abn: null } },
    );
    const printed = texts(doc);
    expect(printed[0]).toBe('Invoice');
    expect(printed).not.toContain('Tax invoice');
    expect(printed.join('\n')).not.toContain('Total price includes GST');
    expect(printed.join('\n')).not.toMatch(/^ABN/m);
    expect(doc.sections.find((s) => s.table)?.table?.columns.map((c) => c.label)).toEqual([
      'Description',
      'Qty',
      'Unit price',
      'Amount',
    ]);
    expect(printed).toContain('Invoice number: INV-000042');
  });

  it('tells how to pay: online, by bank transfer with the invoice number as reference, and the late fee', () => {
    const doc = invoiceDocument(invoice, context);
    const howToPay = doc.sections.find((s) => s.heading === 'How to pay')?.text;
    expect(howToPay).toContain(
      'Pay online: https://app.example/admin/student/payment?invoice=7&authhash=demo',
    );
    expect(howToPay).toContain(
      'Bank transfer: Tumble Gym Pty Ltd, BSB 062-000, account 12345678, reference INV-000042',
    );
    expect(texts(doc)).toContain('A $10 late fee applies 7 days after the due date.');
    // Nothing left to pay: no pay link.
    const paid = invoiceDocument({ ...invoice, balance: 0, status: 'paid' }, context);
    expect(paid.sections.find((s) => s.heading === 'How to pay')?.text).not.toContain('Pay online');
  });

  it('an adjustment note names the invoice it adjusts; both render as PDFs', async () => {
    const note = creditNoteDocument(
      { code: 'CN-000001', issuedOn: '2030-02-04', amount: 2_200, gst: 200, reason: 'Sick week' },
      { code: 'INV-000042', buyerName: 'Pat Parent', buyerEmail: 'pat@example.test', gstRegistered: true },
      'AUD',
      { profile: context.profile },
    );
    const printed = texts(note);
    expect(printed[0]).toBe('Adjustment note');
    expect(printed).toContain('Adjusts invoice: INV-000042');
    expect(printed).toContain('ABN: 51 824 753 556');
    expect(printed).toContain('GST included in the adjustment | $2.00');
    for (const doc of [note, invoiceDocument(invoice, context)]) {
      const pdf = await renderPdf(doc);
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    }
  });
});
