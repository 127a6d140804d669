import { Anchor, Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { formatDate } from '../../admin/format';
import { useChecksDue, useCover } from './coaches-api';

/**
 * The dashboard's coaching cards for staff who keep coach profiles: Working With Children Checks
 * expired or expiring within 30 days, and how many sessions need cover.
 */
export function CoachAlerts() {
  const checks = useChecksDue();
  const cover = useCover();
  const due = checks.data?.data ?? [];
  const needCover = cover.data?.data.length ?? 0;
  return (
    <Stack gap="md">
      <Card>
        <Group justify="space-between" gap="xs">
          <Text>
            {needCover === 0
              ? 'No class sessions need cover.'
              : `${needCover} ${needCover === 1 ? 'class session needs' : 'class sessions need'} cover.`}
          </Text>
          <Anchor component={Link} to="/admin/cover" size="sm">
            Cover
          </Anchor>
        </Group>
      </Card>
      <Card>
        <Stack gap="xs">
          <Title order={2} fz="lg">
            Working With Children Checks
          </Title>
          {checks.isPending ? null : due.length === 0 ? (
            <Text c="dimmed" size="sm">
              No check expires in the next 30 days.
            </Text>
          ) : (
            <Stack
              component="ul"
              gap={6}
              p={0}
              m={0}
              style={{ listStyle: 'none' }}
              aria-label="Checks to renew"
            >
              {due.map((check) => (
                <Group component="li" key={check.coach_id} justify="space-between" gap="xs" wrap="wrap">
                  <Anchor component={Link} to={`/admin/coaches/${check.coach_id}`} size="sm">
                    {check.name}
                  </Anchor>
                  <Group gap="xs">
                    <Text size="sm">{formatDate(check.expires_on)}</Text>
                    <Badge color={check.expired ? 'red' : 'yellow'} variant="light">
                      {check.expired ? 'Expired' : 'Expiring'}
                    </Badge>
                  </Group>
                </Group>
              ))}
            </Stack>
          )}
        </Stack>
      </Card>
    </Stack>
  );
}
