import { Checkbox, Group, NativeSelect, Paper, Radio, Stack, Text } from '@mantine/core';
import { messages } from '@tumble/contracts/messages';
import type { ParentChild } from '../../../api/children';
import { NewChildFields } from '../../checkout/new-child-fields';
import type { EventInsurances } from '../api/insurances';
import { formatMoney } from '../booking-format';
import {
  availableFullProducts,
  type ChildForm,
  childRow,
  type InsuranceChoice,
  insuranceOffered,
  NEW_CHILD,
} from '../checkout-form';

interface ChildFieldsProps {
  index: number;
  row: ChildForm;
  existing: ParentChild[];
  /** Null when only waitlisted sessions are chosen: no insurance to pick. */
  insurances: EventInsurances | null;
  currency: string;
  onChange: (row: ChildForm) => void;
}

/** One child of the checkout: an existing child or a new one, and (for booked days) the insurance. */
export function ChildFields({ index, row, existing, insurances, currency, onChange }: ChildFieldsProps) {
  const position = index + 1;
  const options = [
    ...existing.map((child) => ({
      value: String(child.id),
      label: `${child.first_name} ${child.last_name}`,
    })),
    { value: NEW_CHILD, label: 'New child' },
  ];
  const fullProducts = insurances ? availableFullProducts(row, insurances) : [];
  const alreadyInsured = insurances !== null && insurances.full.length > 0 && fullProducts.length === 0;

  function choose(choice: string) {
    if (choice === row.choice) return;
    // Another child may have other insurance left to buy: the insurance choice starts again, from the
    // family's usual choice for this child when the event offers it.
    onChange(childRow(choice, existing, insurances));
  }

  function chooseInsurance(value: string) {
    onChange({ ...row, insurance_type: value as InsuranceChoice, insurance_ids: [] });
  }

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={`Child ${position}`}>
      <Stack gap="sm">
        <Text fw={700}>{`Child ${position}`}</Text>
        <NativeSelect
          label="Child"
          data={options}
          value={row.choice}
          onChange={(event) => choose(event.currentTarget.value)}
        />
        {row.choice === NEW_CHILD ? (
          <>
            <NewChildFields value={row} onChange={(change) => onChange({ ...row, ...change })} />
            <Checkbox
              label="I consent to photos of this child being taken and shared by the provider"
              checked={row.consent}
              onChange={(event) => onChange({ ...row, consent: event.currentTarget.checked })}
            />
          </>
        ) : null}

        {/* A company that sells no insurance asks nothing (issue 21 point 6). */}
        {insuranceOffered(insurances) ? (
          <Stack gap={6}>
            <Radio.Group label="Insurance" value={row.insurance_type} onChange={chooseInsurance}>
              <Stack gap={8} mt={6}>
                {insurances.daily ? (
                  <Radio
                    value="daily_insurance"
                    label={`Daily insurance: ${insurances.daily.name}`}
                    description={`${formatMoney(insurances.daily.price, currency)} per booked day`}
                  />
                ) : null}
                {insurances.full.length > 0 ? (
                  <Radio
                    value="full_insurance"
                    label="Full insurance"
                    description={
                      alreadyInsured ? messages.alreadyPurchasedInsurance : 'Cover for the whole season'
                    }
                    disabled={alreadyInsured}
                  />
                ) : null}
              </Stack>
            </Radio.Group>
            {row.insurance_type === 'full_insurance' && fullProducts.length > 0 ? (
              <Checkbox.Group
                label="Full insurance products"
                value={row.insurance_ids.map(String)}
                onChange={(values) => onChange({ ...row, insurance_ids: values.map(Number) })}
                pl="lg"
              >
                <Group gap="sm" mt={6}>
                  {fullProducts.map((product) => (
                    <Checkbox
                      key={product.id}
                      value={String(product.id)}
                      label={`${product.name} (${formatMoney(product.price, currency)})`}
                    />
                  ))}
                </Group>
              </Checkbox.Group>
            ) : null}
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}
