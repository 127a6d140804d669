import {
  Alert,
  Button,
  Card,
  Group,
  Modal,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { messages } from '@tumble/contracts/messages';
import {
  paidHowLabels,
  type StaffUniformOrders,
  type UniformOrder,
  uniformOrderMessages,
} from '@tumble/contracts/uniform-orders';
import { useState } from 'react';
import { formatDate, formatMoney } from '../../admin/format';
import { ApiError } from '../../api/client';
import { useNarrowScreen } from '../../components/narrow-screen';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { OrderStatusBadge } from './order-status-badge';
import { UniformChoiceFields, useUniformChoice } from './uniform-choice';
import { useCreateDeskOrder, useOrderAction, useStaffUniformOrders } from './uniform-orders-api';

const serverMessage = (error: unknown) =>
  (error instanceof ApiError && error.serverMessage) || messages.communicationError;

type Notice = { color: string; text: string } | null;

/**
 * /admin/uniform-orders: every uniform order (child, family, items, status, paid how), an order at
 * the front desk (paid now in cash or by EFTPOS, or added to an invoice), collect and cancel.
 */
export function StaffUniformOrdersPage() {
  const data = useStaffUniformOrders();
  const [notice, setNotice] = useState<Notice>(null);
  if (data.isPending) return <PageLoader />;
  if (data.isError)
    return (
      <Alert color="red" role="alert">
        {messages.formLoadFailed}
      </Alert>
    );
  return (
    <Stack gap="lg">
      <PageTitle title="Uniform orders" description="Orders from families and the front desk." />
      {notice ? (
        <Alert color={notice.color} role="status" withCloseButton onClose={() => setNotice(null)}>
          {notice.text}
        </Alert>
      ) : null}
      <DeskOrder data={data.data} onDone={setNotice} />
      <OrderList orders={data.data.orders} onDone={setNotice} />
    </Stack>
  );
}

function OrderActions({ order, onDone }: { order: UniformOrder; onDone: (n: Notice) => void }) {
  const action = useOrderAction();
  const [asking, setAsking] = useState(false);
  const run = (kind: 'collect' | 'cancel') =>
    action.mutate(
      { id: order.id, action: kind },
      {
        onSuccess: (answer) => onDone({ color: 'green', text: answer.message }),
        onError: (error) => onDone({ color: 'red', text: serverMessage(error) }),
        onSettled: () => setAsking(false),
      },
    );
  const collectable = order.status === 'paid' || order.status === 'to_be_collected';
  const cancellable = collectable || order.status === 'pending_payment' || order.status === 'refund_due';
  return (
    <Group gap="xs" wrap="nowrap">
      {collectable ? (
        <Button size="xs" onClick={() => run('collect')} loading={action.isPending && !asking}>
          Mark collected
        </Button>
      ) : null}
      {cancellable ? (
        <Button size="xs" variant="default" color="red" onClick={() => setAsking(true)}>
          Cancel
        </Button>
      ) : null}
      <Modal opened={asking} onClose={() => setAsking(false)} title="Cancel this order?" centered>
        <Stack gap="md">
          <Text size="sm">
            {order.items} for {order.child_name}. The stock goes back on the shelf
            {order.paid_how === 'card' && order.status === 'paid'
              ? '; the card payment is refunded.'
              : order.paid_how === 'invoice'
                ? '; its invoice is voided.'
                : order.status === 'paid'
                  ? '; the payment becomes family credit.'
                  : '.'}
          </Text>
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => setAsking(false)}>
              Keep order
            </Button>
            <Button color="red" loading={action.isPending} onClick={() => run('cancel')}>
              Cancel order
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Group>
  );
}

function OrderList({ orders, onDone }: { orders: UniformOrder[]; onDone: (n: Notice) => void }) {
  const narrow = useNarrowScreen();
  if (orders.length === 0) return <Text c="dimmed">No uniform orders yet.</Text>;
  if (narrow)
    return (
      <Stack gap="sm" component="section" aria-label="Uniform orders">
        {orders.map((order) => (
          <Card
            key={order.id}
            withBorder
            padding="md"
            component="article"
            aria-label={`Uniform order ${order.code}`}
          >
            <Stack gap={6}>
              <Group justify="space-between" align="flex-start" gap="xs">
                <Stack gap={2}>
                  <Text fw={700}>{order.child_name}</Text>
                  <Text size="sm">{order.items}</Text>
                  <Text size="xs" c="dimmed">
                    {order.parent_name} · {order.code} · {formatMoney(order.amount)} ·{' '}
                    {paidHowLabels[order.paid_how]}
                  </Text>
                </Stack>
                <OrderStatusBadge status={order.status} />
              </Group>
              <OrderActions order={order} onDone={onDone} />
            </Stack>
          </Card>
        ))}
      </Stack>
    );
  return (
    <Card component="section" aria-label="Uniform orders" p={0}>
      <Table.ScrollContainer minWidth={900}>
        <Table verticalSpacing="sm" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Ordered</Table.Th>
              <Table.Th>Child</Table.Th>
              <Table.Th>Family</Table.Th>
              <Table.Th>Items</Table.Th>
              <Table.Th>Amount</Table.Th>
              <Table.Th>Paid how</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {orders.map((order) => (
              <Table.Tr key={order.id}>
                <Table.Td>
                  <Text size="sm">{formatDate(order.created_at)}</Text>
                  <Text size="xs" c="dimmed">
                    {order.code}
                  </Text>
                </Table.Td>
                <Table.Td>{order.child_name}</Table.Td>
                <Table.Td>{order.parent_name}</Table.Td>
                <Table.Td>{order.items}</Table.Td>
                <Table.Td>{formatMoney(order.amount)}</Table.Td>
                <Table.Td>{paidHowLabels[order.paid_how]}</Table.Td>
                <Table.Td>
                  <OrderStatusBadge status={order.status} />
                </Table.Td>
                <Table.Td>
                  <OrderActions order={order} onDone={onDone} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}

/** An order at the front desk for a family's child. */
function DeskOrder({ data, onDone }: { data: StaffUniformOrders; onDone: (n: Notice) => void }) {
  const create = useCreateDeskOrder();
  const [familyId, setFamilyId] = useState<number | null>(null);
  const choice = useUniformChoice(data.types);
  const { childId, setChildId, sizeId, setSizeId, setQuantity, quantity, type, size } = choice;
  const [pay, setPay] = useState<'cash' | 'eftpos' | 'invoice'>('cash');
  const [reference, setReference] = useState('');
  const [error, setError] = useState<string | null>(null);
  const family = data.families.find((f) => f.id === familyId) ?? null;
  const submit = () => {
    setError(null);
    if (familyId === null) return setError(uniformOrderMessages.family);
    if (childId === null) return setError(uniformOrderMessages.child);
    if (sizeId === null) return setError(uniformOrderMessages.size);
    create.mutate(
      { parent_id: familyId, child_id: childId, size_id: sizeId, quantity, pay, reference },
      {
        onSuccess: () => {
          onDone({ color: 'green', text: 'Uniform order placed.' });
          setSizeId(null);
          setQuantity(1);
          setReference('');
        },
        onError: (e) => setError(serverMessage(e)),
      },
    );
  };
  return (
    <Card component="section" aria-label="New order at the desk">
      <Stack gap="sm">
        <Title order={2} size="h4">
          New order at the desk
        </Title>
        {error ? (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        ) : null}
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
          <NativeSelect
            label="Family"
            data={[
              { value: '', label: 'Choose a family' },
              ...data.families.map((f) => ({ value: String(f.id), label: f.name })),
            ]}
            value={familyId === null ? '' : String(familyId)}
            onChange={(e) => {
              const id = e.currentTarget.value ? Number(e.currentTarget.value) : null;
              setFamilyId(id);
              const kids = data.families.find((f) => f.id === id)?.children ?? [];
              setChildId(kids.length === 1 ? kids[0]!.id : null);
            }}
          />
          <UniformChoiceFields kids={family?.children ?? []} types={data.types} choice={choice} />
          <NativeSelect
            label="Paid how"
            data={[
              { value: 'cash', label: 'Cash now' },
              { value: 'eftpos', label: 'EFTPOS now' },
              { value: 'invoice', label: 'Add to an invoice' },
            ]}
            value={pay}
            onChange={(e) => setPay(e.currentTarget.value as typeof pay)}
          />
          {pay === 'invoice' ? null : (
            <TextInput
              label="Reference"
              placeholder="Optional"
              value={reference}
              onChange={(e) => setReference(e.currentTarget.value)}
            />
          )}
        </SimpleGrid>
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {size && type ? `To pay: ${formatMoney(type.price * quantity)}` : ' '}
          </Text>
          <Button onClick={submit} loading={create.isPending}>
            Place order
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
