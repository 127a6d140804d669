import type { AppDeps } from '../deps.ts';
import type { ProviderName } from './provider.ts';

/**
 * Provider notices that are not about a checkout: a refund changed state, a card setup finished.
 * platform/payments receives them (webhooks, the test card page) and billing handles them, so
 * billing registers its handlers here at start-up (app.ts) and platform never imports a feature.
 * Handlers re-read the object from the provider (webhooks are triggers, not truth) and are
 * idempotent: the same notice twice, or two out of order, end in the same state.
 */
export type RefundNoticeHandler = (deps: AppDeps, provider: ProviderName, refundRef: string) => Promise<void>;
export type CardSetupNoticeHandler = (
  deps: AppDeps,
  provider: ProviderName,
  sessionId: string,
) => Promise<void>;

const handlers: { refund: RefundNoticeHandler | null; cardSetup: CardSetupNoticeHandler | null } = {
  refund: null,
  cardSetup: null,
};

export function onRefundNotice(handler: RefundNoticeHandler): void {
  handlers.refund = handler;
}

export function onCardSetupNotice(handler: CardSetupNoticeHandler): void {
  handlers.cardSetup = handler;
}

/** A provider said a refund changed: billing re-reads it and records its state once. */
export async function refundNoticed(deps: AppDeps, provider: ProviderName, refundRef: string): Promise<void> {
  await handlers.refund?.(deps, provider, refundRef);
}

/** A provider said a card setup finished: billing re-reads it and saves the card on the family's account. */
export async function cardSetupNoticed(
  deps: AppDeps,
  provider: ProviderName,
  sessionId: string,
): Promise<void> {
  await handlers.cardSetup?.(deps, provider, sessionId);
}
