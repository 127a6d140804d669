import { Anchor, Card, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useOpenAnomalyCount } from './anomalies-api';

/** The dashboard's card for staff who resolve registration anomalies: how many are open. */
export function AnomalyAlert() {
  const count = useOpenAnomalyCount();
  const open = count.data?.open ?? 0;
  if (count.isPending) return null;
  return (
    <Card>
      <Group justify="space-between" gap="xs">
        <Text fw={open > 0 ? 600 : undefined} c={open > 0 ? 'orange.8' : undefined}>
          {open === 0
            ? 'No registrations need a decision.'
            : `${open} ${open === 1 ? 'registration needs' : 'registrations need'} a decision.`}
        </Text>
        <Anchor component={Link} to="/admin/registration-anomalies" size="sm">
          Registration anomalies
        </Anchor>
      </Group>
    </Card>
  );
}
