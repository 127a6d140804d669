import { Alert, Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { messages } from '@tumble/contracts/messages';
import { PageLoader } from '../../components/page-loader';
import { formatDate } from '../booking/booking-format';
import { useMyEnrolments } from './registration-api';

const STATUS = {
  pending: { label: 'Awaiting payment', color: 'orange' },
  confirmed: { label: 'Confirmed', color: 'teal' },
  cancelled: { label: 'Cancelled', color: 'gray' },
  expired: { label: 'Expired', color: 'gray' },
  refund_due: { label: 'Refund due', color: 'red' },
} as const;

/** /admin/students/registrations (SPEC students/registrations): the family's enrolment purchases. */
export function MyEnrolmentsPage() {
  useDocumentTitle('Enrolments');
  const list = useMyEnrolments();
  if (list.isPending) return <PageLoader />;
  return (
    <Stack maw={900}>
      <Title order={1} fz={{ base: 24, sm: 30 }}>
        Enrolments
      </Title>
      {list.error || !list.data ? (
        <Alert color="red" role="alert">
          {messages.formLoadFailed}
        </Alert>
      ) : list.data.purchases.length === 0 ? (
        <Text c="dimmed">No enrolments yet.</Text>
      ) : (
        list.data.purchases.map((p) => (
          <Card key={p.reference} withBorder component="article" aria-label={p.code}>
            <Group justify="space-between" align="flex-start">
              <Stack gap={2}>
                <Text fw={700}>{p.code}</Text>
                <Text size="sm">{p.classes.join(', ')}</Text>
                <Text size="sm" c="dimmed">
                  {p.children.join(', ')} · {formatDate(p.created_at.slice(0, 10))}
                </Text>
              </Stack>
              <Stack gap={4} align="flex-end">
                <Badge color={STATUS[p.status].color} variant="light">
                  {STATUS[p.status].label}
                </Badge>
                <Text fw={700}>{p.total}</Text>
              </Stack>
            </Group>
          </Card>
        ))
      )}
    </Stack>
  );
}
