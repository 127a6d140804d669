import { Alert, Card, Divider, Group, Radio, Stack, Text, Title } from '@mantine/core';
import { messages } from '@tumble/contracts/messages';
import { type MyUniformOrders, paidHowLabels, uniformOrderMessages } from '@tumble/contracts/uniform-orders';
import { useCallback, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { formatMoney } from '../../admin/format';
import { ApiError } from '../../api/client';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { PriceLines } from '../../components/price-lines';
import { CheckoutLayout } from '../checkout/checkout-layout';
import { useCardPayment } from '../checkout/use-card-payment';
import { useLessonPaymentTerms } from '../private-lessons/private-lessons-api';
import { OrderStatusBadge } from './order-status-badge';
import { UniformChoiceFields, useUniformChoice } from './uniform-choice';
import { postUniformCheckout, useMyUniformOrders, useUniformCharges } from './uniform-orders-api';

export const UNIFORMS_PATH = '/admin/students/uniforms';

const serverMessage = (error: unknown) =>
  (error instanceof ApiError && error.serverMessage) || messages.communicationError;

/**
 * /admin/students/uniforms (SPEC students/uniforms): the parent's uniform orders with their status,
 * and a new order: a child, a uniform type, a size (with what is in stock) and 1 to 10 of them,
 * paid by card through the one checkout, or added to the next invoice where the company allows it.
 */
export function UniformsPage() {
  const [params] = useSearchParams();
  const data = useMyUniformOrders();
  if (data.isPending) return <PageLoader />;
  if (data.isError)
    return (
      <Alert color="red" role="alert">
        {messages.formLoadFailed}
      </Alert>
    );
  return (
    <Stack gap="lg" maw={1100} w="100%" mx="auto">
      <PageTitle
        title="Uniforms"
        description="Order leotards, shirts and other uniforms for your children."
      />
      {params.get('status') === 'true' ? (
        <Alert color="green" role="status" title="Order placed">
          Thank you. Your uniform order is placed; we will let you know when it is ready to collect.
        </Alert>
      ) : null}
      <MyOrders orders={data.data.orders} />
      <OrderForm data={data.data} />
    </Stack>
  );
}

function MyOrders({ orders }: { orders: MyUniformOrders['orders'] }) {
  if (orders.length === 0) return null;
  return (
    <Stack gap="sm" component="section" aria-label="My uniform orders">
      <Title order={2} size="h4">
        My uniform orders
      </Title>
      {orders.map((order) => (
        <Card
          key={order.id}
          withBorder
          padding="md"
          component="article"
          aria-label={`Uniform order ${order.code}`}
        >
          <Group justify="space-between" align="flex-start" gap="xs">
            <Stack gap={2}>
              <Text fw={700}>{order.items}</Text>
              <Text size="sm">{order.child_name}</Text>
              <Text size="xs" c="dimmed">
                Ref {order.code} · {formatMoney(order.amount)} · {paidHowLabels[order.paid_how]}
              </Text>
            </Stack>
            <OrderStatusBadge status={order.status} />
          </Group>
        </Card>
      ))}
    </Stack>
  );
}

function OrderForm({ data }: { data: MyUniformOrders }) {
  const navigate = useNavigate();
  const terms = useLessonPaymentTerms();
  const choice = useUniformChoice(data.types, {
    childId: data.children.length === 1 ? data.children[0]!.id : null,
    typeId: data.types.length === 1 ? data.types[0]!.id : null,
  });
  const { childId, type, size, quantity } = choice;
  const [pay, setPay] = useState<'card' | 'invoice'>('card');
  const [accepted, setAccepted] = useState(false);
  const payHow = type?.invoice_allowed ? pay : 'card';
  const charges = useUniformCharges({ sizeId: size?.id ?? null, quantity, pay: payHow });
  const pricing = charges.isPlaceholderData ? undefined : charges.data;
  const amountDue = pricing?.pricing_details.amount_due?.value;
  const finish = useCallback(() => navigate(`${UNIFORMS_PATH}?status=true`), [navigate]);

  const problems: string[] = [];
  if (childId === null) problems.push(uniformOrderMessages.child);
  if (size === null) problems.push(uniformOrderMessages.size);
  if (!accepted) problems.push(messages.acceptTerms);
  const step = useCardPayment({
    problems,
    finish,
    cancelledNotice: 'Payment cancelled. The uniform is no longer held for you; confirm again to pay.',
    send: () =>
      amountDue === undefined || childId === null || size === null
        ? null
        : postUniformCheckout({
            child_id: childId,
            size_id: size.id,
            quantity,
            pay: payHow,
            amount: amountDue,
            coupon_code: '',
            accept_terms: true,
          }),
  });

  if (data.types.length === 0) return <Text c="dimmed">No uniforms are on sale at the moment.</Text>;
  return (
    <CheckoutLayout
      header={null}
      title="Order a uniform"
      change={{ to: '/admin/students/children', label: 'My children' }}
      step={step}
      onComplete={finish}
      childrenTitle="Uniform"
      childrenForm={
        <Stack gap="sm">
          <UniformChoiceFields kids={data.children} types={data.types} choice={choice} />
          {type?.invoice_allowed ? (
            <Radio.Group label="How to pay" value={pay} onChange={(v) => setPay(v as 'card' | 'invoice')}>
              <Stack gap={6} mt={4}>
                <Radio value="card" label="Pay now by card" />
                <Radio value="invoice" label="Add to my next invoice" />
              </Stack>
            </Radio.Group>
          ) : null}
        </Stack>
      }
      discounts={null}
      terms={{
        loading: terms.isPending,
        html: terms.data?.payment_terms,
        accepted,
        onAcceptedChange: setAccepted,
      }}
      summaryTitle="Order summary"
      summary={
        <>
          <Text fw={700}>
            {size && type ? `${type.name}, ${size.name} × ${quantity}` : 'Choose a uniform and size'}
          </Text>
          <Divider />
          {size ? (
            <PriceLines pricing={pricing ?? null} loading={charges.isFetching} highlight="amount_due" />
          ) : null}
        </>
      }
      priceError={charges.isError ? serverMessage(charges.error) : null}
      confirmLabel={payHow === 'invoice' ? 'Place order' : 'Confirm Payment'}
      confirmDisabled={size !== null && (charges.isFetching || amountDue === undefined)}
    />
  );
}
