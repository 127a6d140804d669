import { z } from 'zod';
import { messages } from './messages.ts';

/**
 * Uniform orders (SPEC students/uniforms, admin uniform-orders): a parent or staff orders a uniform
 * type in one size for a child; the stock goes down; it is paid by card through checkout, at the
 * desk (cash, EFTPOS) or added to an invoice. Amounts in cents.
 */

const id = (message: string) =>
  z.coerce.number({ message }).int(message).positive(message).max(2_147_483_647, message);

export const MAX_UNIFORM_QUANTITY = 10;

export const uniformOrderMessages = {
  child: 'Please choose a child.',
  size: 'Please choose a size.',
  quantity: `Please choose a quantity from 1 to ${MAX_UNIFORM_QUANTITY}.`,
  pay: 'Please choose how to pay.',
  family: 'Please choose a family.',
  outOfStock: (size: string, left: number) =>
    left === 0 ? `Sorry, ${size} is out of stock.` : `Sorry, only ${left} of ${size} left in stock.`,
  invoiceNotAllowed: 'This uniform cannot be added to an invoice. Please pay by card.',
  notFound: 'This uniform order could not be found.',
  notCollectable: 'Only a paid or invoiced order can be collected.',
  notCancellable: 'This order is already collected or cancelled.',
  cancelled: 'Order cancelled. The stock is back on the shelf.',
  collected: 'Order marked collected.',
} as const;

const quantity = z.coerce
  .number({ message: uniformOrderMessages.quantity })
  .int(uniformOrderMessages.quantity)
  .min(1, uniformOrderMessages.quantity)
  .max(MAX_UNIFORM_QUANTITY, uniformOrderMessages.quantity);

/** GET /api/v1/students/uniform-orders/charges: the price of an order before paying. */
export const uniformChargesQuery = z.object({
  size_id: id(uniformOrderMessages.size),
  quantity,
  pay: z.enum(['card', 'invoice']).default('card'),
  coupon_code: z.string().trim().max(40).optional().default(''),
});

/** POST /api/v1/students/uniform-orders/checkout: the parent's order. */
export const uniformCheckoutRequest = z.object({
  child_id: id(uniformOrderMessages.child),
  size_id: id(uniformOrderMessages.size),
  quantity,
  /** Card now, or (when the uniform type allows it) added to the family's next invoice. */
  pay: z.enum(['card', 'invoice'], uniformOrderMessages.pay),
  /** What the parent saw as due now, cents (checked against the server's price). */
  amount: z.coerce.number().int().min(0),
  coupon_code: z.string().trim().max(40).optional().default(''),
  accept_terms: z.literal(true, messages.acceptTerms),
});
export type UniformCheckoutRequest = z.infer<typeof uniformCheckoutRequest>;

/** POST /api/v1/admin/uniform-orders: staff order at the front desk, paid now or on an invoice. */
export const staffUniformOrderRequest = z.object({
  parent_id: id(uniformOrderMessages.family),
  child_id: id(uniformOrderMessages.child),
  size_id: id(uniformOrderMessages.size),
  quantity,
  pay: z.enum(['cash', 'eftpos', 'invoice'], uniformOrderMessages.pay),
  reference: z.string().trim().max(120).default(''),
});
export type StaffUniformOrderRequest = z.infer<typeof staffUniformOrderRequest>;

/** How an order reads to people (the order row's status and collection together). */
export const uniformOrderStatuses = [
  'pending_payment',
  'paid',
  'to_be_collected',
  'collected',
  'cancelled',
  'refund_due',
] as const;
export type UniformOrderStatus = (typeof uniformOrderStatuses)[number];
export const uniformOrderStatusLabels: Record<UniformOrderStatus, string> = {
  pending_payment: 'Pending payment',
  paid: 'Paid',
  to_be_collected: 'To be collected',
  collected: 'Collected',
  cancelled: 'Cancelled',
  refund_due: 'Refund due',
};

export const paidHowLabels = {
  card: 'Card',
  cash: 'Cash',
  eftpos: 'EFTPOS',
  invoice: 'Invoice',
} as const;

export const uniformOrder = z.object({
  id: z.number(),
  code: z.string(),
  child_id: z.number(),
  child_name: z.string(),
  parent_id: z.number(),
  parent_name: z.string(),
  /** e.g. "Club leotard, Child 8 × 2". */
  items: z.string(),
  status: z.enum(uniformOrderStatuses),
  paid_how: z.enum(['card', 'cash', 'eftpos', 'invoice']),
  amount: z.number(),
  invoice_id: z.number().nullable(),
  created_at: z.string(),
  collected_at: z.string().nullable(),
});
export type UniformOrder = z.infer<typeof uniformOrder>;

export const uniformCatalogue = z.array(
  z.object({
    id: z.number(),
    name: z.string(),
    price: z.number(),
    invoice_allowed: z.boolean(),
    sizes: z.array(z.object({ id: z.number(), name: z.string(), stock: z.number() })),
  }),
);
export type UniformCatalogue = z.infer<typeof uniformCatalogue>;

/** GET /api/v1/students/uniform-orders: what the parent can order and their orders. */
export const myUniformOrdersResponse = z.object({
  children: z.array(z.object({ id: z.number(), name: z.string() })),
  types: uniformCatalogue,
  orders: z.array(uniformOrder),
});
export type MyUniformOrders = z.infer<typeof myUniformOrdersResponse>;

/** GET /api/v1/admin/uniform-orders: every order, newest first, and what the desk can order. */
export const staffUniformOrdersResponse = z.object({
  orders: z.array(uniformOrder),
  types: uniformCatalogue,
  families: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      children: z.array(z.object({ id: z.number(), name: z.string() })),
    }),
  ),
});
export type StaffUniformOrders = z.infer<typeof staffUniformOrdersResponse>;
