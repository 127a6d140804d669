import {
  Alert,
  Anchor,
  Button,
  Card,
  Checkbox,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { paymentMethodLabels } from '@tumble/contracts/billing';
import {
  type RecordedMethod,
  type RecordPaymentOptions,
  type RecordPaymentResponse,
  recordedMethods,
  recordPaymentRequest,
  referenceRequired,
  splitPayment,
} from '@tumble/contracts/payments';
import { type FormEvent, useState } from 'react';
import { Link, Navigate, useParams, useSearchParams } from 'react-router';
import { MoneyField } from '../../admin/fields/money-field';
import { ReferenceSelect } from '../../admin/fields/reference-select';
import { formatDate, formatMoney } from '../../admin/format';
import { ResourceHeader } from '../../admin/resource-header';
import { ApiError } from '../../api/client';
import { FormAlerts } from '../../components/form-alerts';
import { type FieldErrors, fieldErrorsFromForm, fieldErrorsFromZod } from '../../components/form-errors';
import { PageLoader } from '../../components/page-loader';
import { type OptionsFor, useRecordOptions, useRecordPayment } from './record-payment-api';

const parents = { resource: 'parents', parent: null };

/** A positive whole id from the address, or undefined. */
function idParam(value: string | null): number | undefined {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/**
 * Record a payment (/admin/payments/record): money staff took at the desk or by bank transfer.
 * Reached from the Money menu, from an invoice (?invoice=), a party booking (?party_booking=) or a
 * family (?family=). It pays the family's ticked invoices, oldest due first (what is left becomes
 * the family's credit, said before saving), or a party's balance.
 */
export function RecordPaymentPage() {
  const [params] = useSearchParams();
  const [link] = useState<OptionsFor>(() => ({
    family: idParam(params.get('family')),
    invoice: idParam(params.get('invoice')),
    party_booking: idParam(params.get('party_booking')),
  }));
  const [familyId, setFamilyId] = useState<number | undefined>(link.family);
  const [recorded, setRecorded] = useState<RecordPaymentResponse | null>(null);
  const [round, setRound] = useState(0);
  // The link's invoice or party names the family; once staff pick another family only it counts.
  const asked: OptionsFor =
    familyId !== undefined && familyId !== link.family ? { family: familyId } : { ...link, family: familyId };
  const options = useRecordOptions(asked);

  return (
    <Stack maw={760} w="100%">
      <ResourceHeader
        title="Record a payment"
        crumbs={[
          { label: 'Money' },
          { label: 'Payments', to: '/admin/payments' },
          { label: 'Record a payment' },
        ]}
      />
      {recorded ? (
        <Alert
          color="teal"
          role="status"
          title="Payment recorded"
          withCloseButton
          onClose={() => setRecorded(null)}
        >
          <Stack gap={4}>
            <Text size="sm">{recorded.message}</Text>
            <Group gap="md">
              <Anchor component={Link} to="/admin/payments" size="sm">
                See payments
              </Anchor>
            </Group>
          </Stack>
        </Alert>
      ) : null}
      {options.isError ? (
        <Alert color="red" role="alert">
          {options.error instanceof ApiError && options.error.status === 404
            ? 'That family, invoice or party booking could not be found.'
            : 'The family’s invoices could not be loaded. Please try again.'}
        </Alert>
      ) : null}
      {options.data ? (
        <PaymentForm
          key={`${options.data.family?.id ?? 0}-${round}`}
          options={options.data}
          firstOpen={round === 0}
          loading={options.isFetching}
          onFamily={(id) => {
            setRecorded(null);
            setFamilyId(id);
          }}
          onRecorded={(response) => {
            setRecorded(response);
            setRound((n) => n + 1);
          }}
        />
      ) : options.isPending ? (
        <PageLoader />
      ) : null}
    </Stack>
  );
}

function PaymentForm({
  options,
  firstOpen,
  loading,
  onFamily,
  onRecorded,
}: {
  options: RecordPaymentOptions;
  /** Opened from a party's link: its balance is the amount (not again after a payment is saved). */
  firstOpen: boolean;
  loading: boolean;
  onFamily: (id: number | undefined) => void;
  onRecorded: (response: RecordPaymentResponse) => void;
}) {
  const money = (cents: number) => formatMoney(cents, options.currency);
  const linkedParty = options.parties.find((p) => p.id === options.selected.party_booking_id);
  const [method, setMethod] = useState<RecordedMethod | null>('cash');
  const [dollars, setDollars] = useState<number | ''>(
    linkedParty && firstOpen ? linkedParty.balance / 100 : '',
  );
  const [receivedOn, setReceivedOn] = useState(options.today);
  const [reference, setReference] = useState('');
  const [partyId, setPartyId] = useState<number | null>(linkedParty?.id ?? null);
  // Every open invoice is ticked, unless the link named one invoice or a party.
  const [ticked, setTicked] = useState<number[]>(() =>
    linkedParty
      ? []
      : options.selected.invoice_id !== null &&
          options.invoices.some((i) => i.id === options.selected.invoice_id)
        ? [options.selected.invoice_id]
        : options.invoices.map((i) => i.id),
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string>();
  const save = useRecordPayment(onRecorded);

  const cents = dollars === '' ? 0 : Math.round(dollars * 100);
  const party = options.parties.find((p) => p.id === partyId) ?? null;
  const chosen = options.invoices.filter((i) => ticked.includes(i.id));
  const split = splitPayment(cents, chosen);

  function tickInvoice(id: number, on: boolean) {
    setPartyId(null);
    setTicked((current) => (on ? [...current, id] : current.filter((t) => t !== id)));
  }
  function tickParty(id: number, on: boolean) {
    setPartyId(on ? id : null);
    if (on) setTicked([]);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFailure(undefined);
    const body = {
      parent_id: options.family?.id,
      method: method ?? undefined,
      amount: cents,
      received_on: receivedOn,
      reference,
      invoice_ids: partyId === null ? ticked : [],
      party_booking_id: partyId,
    };
    const parsed = recordPaymentRequest.safeParse(body);
    if (!parsed.success) {
      setErrors(fieldErrorsFromZod(parsed.error));
      return;
    }
    setErrors({});
    save.mutate(parsed.data, {
      onError: (error) => {
        const form = error instanceof ApiError ? error.formResponse : undefined;
        if (form) setErrors(fieldErrorsFromForm(form));
        else setFailure(error instanceof ApiError ? error.serverMessage : error.message);
      },
    });
  }

  const needsReference = method !== null && referenceRequired.includes(method);
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <FormAlerts failure={failure} />
        <Card withBorder p={{ base: 'sm', sm: 'md' }}>
          <Stack gap="sm">
            <Title order={2} fz="lg">
              Family
            </Title>
            <ReferenceSelect
              target={parents}
              label="Parent"
              placeholder="Search by name"
              withAsterisk
              value={options.family ? String(options.family.id) : null}
              initialLabel={options.family?.name}
              onChange={(value) => onFamily(value === null ? undefined : Number(value))}
              error={errors.parent_id}
            />
            {options.family ? (
              <Text size="sm" c="dimmed">
                {options.family.email}
                {options.credit_balance > 0 ? ` · ${money(options.credit_balance)} credit` : ''}
              </Text>
            ) : null}
          </Stack>
        </Card>

        <Card withBorder p={{ base: 'sm', sm: 'md' }}>
          <Stack gap="sm">
            <Title order={2} fz="lg">
              Payment
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Select
                label="Method"
                withAsterisk
                allowDeselect={false}
                data={recordedMethods.map((m) => ({ value: m, label: paymentMethodLabels[m] }))}
                value={method}
                onChange={(value) => setMethod(value as RecordedMethod | null)}
                error={errors.method}
              />
              <MoneyField
                label="Amount"
                withAsterisk
                value={dollars}
                onChange={setDollars}
                minCents={1}
                error={errors.amount}
              />
              <TextInput
                label="Date received"
                type="date"
                withAsterisk
                max={options.today}
                value={receivedOn}
                onChange={(e) => setReceivedOn(e.currentTarget.value)}
                error={errors.received_on}
              />
              <TextInput
                label="Reference"
                withAsterisk={needsReference}
                description={
                  method === 'voucher'
                    ? 'The voucher’s code'
                    : method === 'bank_transfer'
                      ? 'The description on the transfer'
                      : 'A receipt number, if any'
                }
                value={reference}
                onChange={(e) => setReference(e.currentTarget.value)}
                error={errors.reference}
              />
            </SimpleGrid>
          </Stack>
        </Card>

        {options.family ? (
          <Card withBorder p={{ base: 'sm', sm: 'md' }} aria-busy={loading}>
            <Stack gap="sm">
              <Title order={2} fz="lg">
                What it pays
              </Title>
              {options.invoices.length === 0 && options.parties.length === 0 ? (
                <Text size="sm" c="dimmed">
                  This family owes nothing: the payment will be kept as their credit.
                </Text>
              ) : null}
              {options.invoices.map((invoice) => (
                <Checkbox
                  key={invoice.id}
                  checked={ticked.includes(invoice.id)}
                  onChange={(e) => tickInvoice(invoice.id, e.currentTarget.checked)}
                  label={
                    <Group gap={6} wrap="wrap">
                      <Text size="sm" fw={600}>
                        {invoice.code}
                      </Text>
                      <Text size="sm">{money(invoice.balance)} owing</Text>
                      <Text size="xs" c={invoice.status === 'overdue' ? 'red' : 'dimmed'}>
                        {invoice.due_on ? `due ${formatDate(invoice.due_on)}` : ''}
                        {invoice.status === 'overdue' ? ' · overdue' : ''}
                      </Text>
                    </Group>
                  }
                />
              ))}
              {options.parties.map((p) => (
                <Checkbox
                  key={`party-${p.id}`}
                  checked={partyId === p.id}
                  onChange={(e) => tickParty(p.id, e.currentTarget.checked)}
                  label={
                    <Group gap={6} wrap="wrap">
                      <Text size="sm" fw={600}>
                        Party {p.code}
                      </Text>
                      <Text size="sm">{money(p.balance)} balance</Text>
                      <Text size="xs" c="dimmed">
                        on {formatDate(p.date)}
                      </Text>
                    </Group>
                  }
                />
              ))}
              {errors.invoice_ids ? (
                <Text size="sm" c="red" role="alert">
                  {errors.invoice_ids}
                </Text>
              ) : null}
              <Outcome
                cents={cents}
                party={party}
                split={split}
                codes={new Map(options.invoices.map((i) => [i.id, i.code]))}
                money={money}
              />
            </Stack>
          </Card>
        ) : null}

        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending} disabled={!options.family} fullWidth={false}>
            Record payment
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** What saving will do, in words, before it is done. */
function Outcome({
  cents,
  party,
  split,
  codes,
  money,
}: {
  cents: number;
  party: { code: string; balance: number } | null;
  split: ReturnType<typeof splitPayment>;
  codes: Map<number, string>;
  money: (cents: number) => string;
}) {
  if (cents <= 0) return null;
  if (party)
    return (
      <Alert color={cents > party.balance ? 'red' : 'blue'} variant="light" data-testid="payment-outcome">
        {cents > party.balance
          ? `That is more than the party's balance of ${money(party.balance)}.`
          : `${money(party.balance - cents)} of the party's balance will be left to pay.`}
      </Alert>
    );
  return (
    <Alert color="blue" variant="light" data-testid="payment-outcome">
      <Stack gap={2}>
        {split.allocated.map((a) => (
          <Text key={a.invoice_id} size="sm">
            {money(a.amount)} on {codes.get(a.invoice_id)}
          </Text>
        ))}
        {split.credit > 0 ? (
          <Text size="sm" fw={600}>
            {money(split.credit)} will be kept as credit
          </Text>
        ) : null}
      </Stack>
    </Alert>
  );
}

/** /admin/party-bookings/:id/record-payment (the party booking's action): the page for that party's balance. */
export function PartyBalancePaymentRedirect() {
  const { id } = useParams();
  return <Navigate to={`/admin/payments/record?party_booking=${encodeURIComponent(id ?? '')}`} replace />;
}
