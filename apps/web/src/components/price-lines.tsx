import { Group, Loader, Stack, Text } from '@mantine/core';
import type { ChargesResponse } from '@tumble/contracts/booking';

/**
 * The order price lines are shown in; lines the server adds later follow, and the highlighted line
 * stays last. Events highlight `total`; parties show `total` (the party price) among the lines and
 * highlight `amount_due` (the deposit plus surcharge charged now).
 */
const ORDER = [
  // Class enrolments: one `place_<n>` line per place, then the family discounts.
  'place',
  'sibling_discount',
  'multi_class_discount',
  'subtotal',
  'booking_fee',
  'insurance',
  'coupon',
  'nsw_voucher',
  'total',
  'deposit',
  'balance',
  'surcharge',
];

function orderedLines(details: ChargesResponse['pricing_details'], highlight: string) {
  const keys = Object.keys(details).filter((key) => key !== highlight);
  const rank = (key: string) => ORDER.indexOf(key.startsWith('place_') ? 'place' : key);
  keys.sort((a, b) => {
    const ia = rank(a);
    const ib = rank(b);
    return (ia === -1 ? ORDER.length : ia) - (ib === -1 ? ORDER.length : ib);
  });
  return keys.map((key) => ({ key, line: details[key]! }));
}

interface PriceLinesProps {
  pricing: ChargesResponse | null;
  loading: boolean;
  /** The pricing_details key shown last and in bold: what the parent looks for. */
  highlight?: string;
}

/** The charges summary's pricing_details: label, description and formatted amount per line. */
export function PriceLines({ pricing, loading, highlight = 'total' }: PriceLinesProps) {
  if (!pricing) {
    return loading ? (
      <Group gap="xs">
        <Loader size="xs" />
        <Text size="sm" c="dimmed">
          Calculating…
        </Text>
      </Group>
    ) : null;
  }
  const emphasised = pricing.pricing_details[highlight];
  return (
    <Stack gap={6} data-testid="price-lines" style={{ opacity: loading ? 0.5 : 1 }} aria-busy={loading}>
      {orderedLines(pricing.pricing_details, highlight).map(({ key, line }) => (
        <Group key={key} justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
          <div>
            <Text size="sm">{line.label}</Text>
            {line.description ? (
              <Text size="xs" c="dimmed">
                {line.description}
              </Text>
            ) : null}
          </div>
          <Text size="sm" fw={500} style={{ whiteSpace: 'nowrap' }}>
            {line.formatted}
          </Text>
        </Group>
      ))}
      {emphasised ? (
        <Group
          justify="space-between"
          wrap="nowrap"
          pt={6}
          style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}
        >
          <Text fw={700}>{emphasised.label}</Text>
          <Text fw={700} size="lg" data-testid={`price-${highlight}`}>
            {emphasised.formatted}
          </Text>
        </Group>
      ) : null}
    </Stack>
  );
}
