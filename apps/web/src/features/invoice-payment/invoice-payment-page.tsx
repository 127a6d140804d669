import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Divider,
  Group,
  Radio,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { type InvoiceStatus, invoiceStatusLabels } from '@tumble/contracts/billing';
import type {
  InvoiceCheckoutRequest,
  InvoicePaymentResponse,
  PlanInstalment,
} from '@tumble/contracts/payments';
import { useCallback, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { formatDate, formatMoney } from '../../admin/format';
import { ApiError } from '../../api/client';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { PriceLines } from '../../components/price-lines';
import { StripeCheckoutModal } from '../../components/stripe-checkout-modal';
import { useCardPayment } from '../checkout/use-card-payment';
import { postInvoiceCheckout, useInvoicePayment } from './invoice-payment-api';

const statusColors: Record<string, string> = {
  issued: 'blue',
  part_paid: 'yellow',
  paid: 'green',
  overdue: 'red',
  void: 'gray',
};

const instalmentLabels: Record<PlanInstalment['status'], string> = {
  due: 'Due',
  paid: 'Paid',
  failed: 'Payment failed',
  cancelled: 'Cancelled',
};

/**
 * SPEC student/payment (/admin/student/payment?invoice=<id>): a signed-in parent pays their own
 * invoice by card, in full or (a balance of $100 or more, due 14 days away or more) by a payment
 * plan whose first instalment is paid now. The card payment is the pipeline's (useCardPayment);
 * the card page returns here with `status=true`, where the page thanks the parent once confirmed.
 */
export function InvoicePaymentPage() {
  const [params] = useSearchParams();
  const invoiceId = Number(params.get('invoice'));
  const returned = params.get('status') === 'true';
  if (!Number.isInteger(invoiceId) || invoiceId <= 0) return <NotFound />;
  return <InvoicePayment invoiceId={invoiceId} returned={returned} />;
}

function NotFound() {
  return (
    <Stack gap="lg" maw={640} w="100%" mx="auto">
      <PageTitle title="Pay an invoice" />
      <Alert color="orange" role="alert">
        This invoice could not be found.
      </Alert>
      <Anchor component={Link} to="/admin/students/payments">
        Back to payments
      </Anchor>
    </Stack>
  );
}

function InvoicePayment({ invoiceId, returned }: { invoiceId: number; returned: boolean }) {
  const page = useInvoicePayment(invoiceId, returned);
  if (page.isPending) return <PageLoader />;
  if (page.isError) {
    if (page.error instanceof ApiError && page.error.status === 404) return <NotFound />;
    return (
      <Alert color="red" role="alert" maw={640} mx="auto">
        The invoice could not be loaded. Please try again.
      </Alert>
    );
  }
  return <Payment data={page.data} returned={returned} />;
}

function Payment({ data, returned }: { data: InvoicePaymentResponse; returned: boolean }) {
  const { invoice, currency, plan } = data;
  const money = (cents: number) => formatMoney(cents, currency);
  return (
    <Stack gap="lg" maw={640} w="100%" mx="auto">
      <PageTitle title={`Invoice ${invoice.code}`} description="Pay your invoice by card." />
      {returned ? <PaidNotice data={data} /> : null}

      <Card component="section" aria-label="Invoice">
        <Stack gap="sm">
          <Group justify="space-between" wrap="nowrap">
            <Title order={2} size="h4">
              Summary
            </Title>
            <Badge color={statusColors[invoice.status] ?? 'gray'} variant="light">
              {invoiceStatusLabels[invoice.status as InvoiceStatus] ?? invoice.status}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed">
            Issued {invoice.issued_on ? formatDate(invoice.issued_on) : '—'} · Due{' '}
            {invoice.due_on ? formatDate(invoice.due_on) : '—'}
          </Text>
          <Stack gap={8}>
            {invoice.lines.map((line, i) => (
              // Lines have no id of their own here; their order is the invoice's.
              // biome-ignore lint/suspicious/noArrayIndexKey: the invoice's lines never change order
              <Group key={i} justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
                <div>
                  <Text size="sm">{line.description}</Text>
                  {line.detail ? (
                    <Text size="xs" c="dimmed">
                      {line.detail}
                    </Text>
                  ) : null}
                </div>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {money(line.amount)}
                </Text>
              </Group>
            ))}
          </Stack>
          <Divider />
          <Group justify="space-between">
            <Text size="sm">Total</Text>
            <Text size="sm">{money(invoice.total)}</Text>
          </Group>
          {invoice.paid > 0 ? (
            <Group justify="space-between">
              <Text size="sm">Paid and credited</Text>
              <Text size="sm">−{money(invoice.paid)}</Text>
            </Group>
          ) : null}
          <Group justify="space-between">
            <Text fw={700}>Balance</Text>
            <Text fw={700} data-testid="invoice-balance">
              {money(invoice.balance)}
            </Text>
          </Group>
        </Stack>
      </Card>

      {plan.length > 0 ? <PlanCard plan={plan} money={money} title="Your payment plan" /> : null}
      {data.choices.length > 0 && !data.pending_payment ? <PayCard data={data} money={money} /> : null}
    </Stack>
  );
}

/** After the card page: thanks once the payment is confirmed, a waiting line until then. */
function PaidNotice({ data }: { data: InvoicePaymentResponse }) {
  if (data.pending_payment)
    return (
      <Alert color="blue" role="status" title="Confirming your payment…">
        This takes a few seconds.
      </Alert>
    );
  const paidCount = data.plan.filter((i) => i.status === 'paid').length;
  if (data.invoice.status === 'paid')
    return (
      <Alert color="green" role="status" title="Thank you">
        Thank you, invoice {data.invoice.code} is paid.
      </Alert>
    );
  if (paidCount > 0)
    return (
      <Alert color="green" role="status" title="Thank you">
        Thank you, instalment {paidCount} of {data.plan.length} paid.
      </Alert>
    );
  return null;
}

function PlanCard({
  plan,
  money,
  title,
}: {
  plan: PlanInstalment[];
  money: (cents: number) => string;
  title: string;
}) {
  return (
    <Card component="section" aria-label={title}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        <PlanTable plan={plan} money={money} />
      </Stack>
    </Card>
  );
}

function PlanTable({ plan, money }: { plan: PlanInstalment[]; money: (cents: number) => string }) {
  return (
    <Table verticalSpacing={4} fz="sm">
      <Table.Tbody>
        {plan.map((i) => (
          <Table.Tr key={i.position}>
            <Table.Td>
              {i.position} of {plan.length}
            </Table.Td>
            <Table.Td>{formatDate(i.due_on)}</Table.Td>
            <Table.Td ta="right">{money(i.amount)}</Table.Td>
            <Table.Td ta="right">
              <Badge
                size="sm"
                variant="light"
                color={i.status === 'paid' ? 'green' : i.status === 'failed' ? 'red' : 'gray'}
              >
                {instalmentLabels[i.status]}
              </Badge>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function PayCard({ data, money }: { data: InvoicePaymentResponse; money: (cents: number) => string }) {
  const navigate = useNavigate();
  const [key, setKey] = useState(data.choices[0]!.key);
  const choice = data.choices.find((c) => c.key === key) ?? data.choices[0]!;
  const finish = useCallback(
    () => navigate(`/admin/student/payment?invoice=${data.invoice.id}&status=true`),
    [navigate, data.invoice.id],
  );
  const step = useCardPayment({
    problems: [],
    finish,
    cancelledNotice: 'Payment cancelled. Nothing was charged; choose how to pay and try again.',
    send: () =>
      postInvoiceCheckout({
        invoice_id: data.invoice.id,
        choice: choice.key as InvoiceCheckoutRequest['choice'],
        amount: choice.amount_due,
      }),
  });
  const plans = data.choices.filter((c) => c.key.startsWith('plan_'));
  return (
    <Card component="section" aria-label="Pay">
      <Stack gap="md">
        <Title order={2} size="h4">
          How would you like to pay?
        </Title>
        {step.errors.length > 0 ? (
          <Alert color="red" role="alert">
            {step.errors.join(' ')}
          </Alert>
        ) : null}
        {step.notice ? (
          <Alert color="orange" role="status" withCloseButton onClose={step.dismissNotice}>
            {step.notice}
          </Alert>
        ) : null}
        <Radio.Group
          value={choice.key}
          onChange={setKey}
          name="choice"
          aria-label="How would you like to pay?"
        >
          <Stack gap="sm">
            {data.choices.map((c) => (
              <Radio
                key={c.key}
                value={c.key}
                label={c.label}
                description={
                  c.key.startsWith('plan_')
                    ? `${money(c.instalments[0]!.amount)} today, then every 14 days`
                    : `${money(c.pricing_details.subtotal?.value ?? c.amount_due)} today`
                }
              />
            ))}
          </Stack>
        </Radio.Group>
        {plans.length > 0 ? (
          <Text size="xs" c="dimmed">
            A payment plan splits the balance into equal instalments, the first today and then every 14 days,
            the last on or before the invoice’s due date.
          </Text>
        ) : null}
        {choice.instalments.length > 0 ? <PlanTable plan={choice.instalments} money={money} /> : null}
        <Divider />
        <PriceLines
          pricing={{
            pricing_details: choice.pricing_details,
            additional_information: { coupon_code: null, nsw_coupon_code: null },
            errors: {},
          }}
          loading={false}
          highlight="amount_due"
        />
        <Button size="md" fullWidth onClick={step.confirm} loading={step.submitting}>
          Pay {money(choice.amount_due)} by card
        </Button>
        {step.paysElsewhere ? (
          <Alert color="blue" role="status">
            Finish paying in the new tab.{' '}
            <Anchor href={step.paysElsewhere} target="_blank" rel="noopener">
              Open the payment page
            </Anchor>
          </Alert>
        ) : null}
      </Stack>
      <StripeCheckoutModal payment={step.payment} onClose={step.closeCardPayment} onComplete={finish} />
    </Card>
  );
}
