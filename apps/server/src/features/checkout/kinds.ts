import { invoiceSale } from '../billing/invoice-sale.ts';
import { eventSale } from '../bookings/checkout.service.ts';
import { enrolmentSale } from '../classes/enrolment-sale.ts';
import { privateLessonSale } from '../coaches/private-lesson-sale.ts';
import { partySale } from '../parties/party.service.ts';
import { uniformSale } from '../uniforms/uniform-order.sale.ts';
import { registerSaleKind } from './checkout.ts';

/** Every kind of sale, plugged into settlement and the expiry job (decision 010: add new kinds here). */
export function registerSaleKinds(): void {
  registerSaleKind(eventSale);
  registerSaleKind(partySale);
  registerSaleKind(privateLessonSale);
  registerSaleKind(enrolmentSale);
  registerSaleKind(invoiceSale);
  registerSaleKind(uniformSale);
}
