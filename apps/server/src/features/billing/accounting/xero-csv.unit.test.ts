import { describe, expect, it } from 'vitest';
import { dollars, type ExportInvoice } from './accounting-export.ts';
import { XeroCsvExport, xeroDate } from './xero-csv.ts';

/** Xero's sales invoice import template header, written out by hand so the code cannot hide a slip. */
const XERO_TEMPLATE_HEADER =
  '*ContactName,EmailAddress,POAddressLine1,POAddressLine2,POAddressLine3,POAddressLine4,POCity,PORegion,' +
  'POPostalCode,POCountry,*InvoiceNumber,Reference,*InvoiceDate,*DueDate,Total,InventoryItemCode,' +
  '*Description,*Quantity,*UnitAmount,Discount,*AccountCode,*TaxType,TaxAmount,TrackingName1,' +
  'TrackingOption1,TrackingName2,TrackingOption2,Currency,BrandingTheme';

const contact = { parentId: 7, name: 'Sam Parent', email: 'sam@example.com' };
const invoice: ExportInvoice = {
  id: 1,
  code: 'INV-000012',
  date: '2030-02-01',
  dueDate: '2030-02-15',
  contact,
  total: 23_100,
  status: 'AUTHORISED',
  lines: [
    {
      description: 'Gymnastics term 1',
      quantity: 10,
      unitAmount: 2_200,
      amount: 22_000,
      gst: 2_000,
      accountCode: '200',
      taxType: 'OUTPUT',
    },
    {
      description: 'Competition fee, "state"',
      quantity: 1,
      unitAmount: 1_100,
      amount: 1_100,
      gst: 0,
      accountCode: '210',
      taxType: 'EXEMPTOUTPUT',
    },
  ],
};

/** A CSV reader small enough to trust: quoted cells with doubled quotes, commas and newlines. */
function parse(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (quoted && c === '"') quoted = false;
    else if (quoted) cell += c;
    else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  return rows;
}

describe('the Xero CSV export', () => {
  it("writes Xero's sales invoice template: its header, one row per line, a GST-free line as GST Free Income", async () => {
    const csv = new XeroCsvExport('AUD');
    await csv.invoice(invoice);
    const [header, taxed, free, ...rest] = parse(csv.file('invoices'));
    expect(header!.join(',')).toBe(XERO_TEMPLATE_HEADER);
    expect(rest).toEqual([]);
    const cell = (row: string[], column: string) => row[header!.indexOf(column)];
    expect(cell(taxed!, '*ContactName')).toBe('Sam Parent');
    expect(cell(taxed!, '*InvoiceNumber')).toBe('INV-000012');
    expect(cell(taxed!, '*InvoiceDate')).toBe('01/02/2030');
    expect(cell(taxed!, '*DueDate')).toBe('15/02/2030');
    expect(cell(taxed!, 'Total')).toBe('231.00');
    expect(cell(taxed!, '*Quantity')).toBe('10');
    expect(cell(taxed!, '*UnitAmount')).toBe('22.00');
    expect(cell(taxed!, '*TaxType')).toBe('GST on Income');
    expect(cell(taxed!, 'TaxAmount')).toBe('20.00');
    expect(cell(free!, '*Description')).toBe('Competition fee, "state"');
    expect(cell(free!, '*AccountCode')).toBe('210');
    expect(cell(free!, '*TaxType')).toBe('GST Free Income');
    expect(cell(free!, 'TaxAmount')).toBe('0.00');
    expect(cell(free!, 'Currency')).toBe('AUD');
  });

  it('leaves voided invoices out, keeps formula-like text as text, and writes payments and refunds as a bank statement', async () => {
    const csv = new XeroCsvExport('AUD');
    await csv.invoice({ ...invoice, status: 'VOIDED' });
    expect(parse(csv.file('invoices'))).toHaveLength(1);
    await csv.invoice({ ...invoice, contact: { ...contact, name: '=HYPERLINK("x")' } });
    expect(parse(csv.file('invoices'))[1]![0]).toBe(`'=HYPERLINK("x")`);
    const base = {
      paymentId: 3,
      invoiceId: 1,
      invoiceCode: 'INV-000012',
      contact,
      date: '2030-02-03',
      accountCode: '090',
    };
    await csv.payment({ ...base, id: 4, amount: 5_000, method: 'cash', reference: 'R-1' });
    await csv.refund({ ...base, id: 5, amount: 1_234, reason: 'Missed class' });
    expect(parse(csv.file('payments'))).toEqual([
      ['Date', 'Amount', 'Payee', 'Description', 'Reference'],
      ['03/02/2030', '50.00', 'Sam Parent', 'Payment of INV-000012 (cash)', 'R-1'],
      ['03/02/2030', '-12.34', 'Sam Parent', 'Refund for INV-000012: Missed class', 'INV-000012'],
    ]);
  });

  it('writes cents as dollars and dates as DD/MM/YYYY', () => {
    expect([dollars(0), dollars(5), dollars(-5), dollars(123_456), dollars(-100)]).toEqual([
      '0.00',
      '0.05',
      '-0.05',
      '1234.56',
      '-1.00',
    ]);
    expect(xeroDate('2030-12-31')).toBe('31/12/2030');
  });
});
