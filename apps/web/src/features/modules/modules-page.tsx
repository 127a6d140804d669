import { Alert, Anchor, Badge, Card, Group, Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { messages } from '@tumble/contracts/messages';
import { modulesResponse } from '@tumble/contracts/platform';
import { Link } from 'react-router';
import { aclKeys } from '../../api/acl';
import { ApiError, api } from '../../api/client';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { modulesKeys } from './modules-api';

/** SPEC modules: the company admin turns modules on and off, within the plan. */
export function ModulesPage() {
  const client = useQueryClient();
  const modules = useQuery({
    queryKey: modulesKeys.admin,
    queryFn: ({ signal }) => api.get('/api/v1/admin/modules', { schema: modulesResponse, signal }),
  });
  const toggle = useMutation({
    mutationFn: (body: { key: string; enabled: boolean }) =>
      api.post('/api/v1/admin/modules', body, { schema: modulesResponse }),
    onSuccess: (data, body) => {
      client.setQueryData(modulesKeys.admin, data);
      // The sidebar and the hidden pages follow at once.
      void client.invalidateQueries({ queryKey: modulesKeys.enabled });
      void client.invalidateQueries({ queryKey: aclKeys.all });
      const label = data.modules.find((m) => m.key === body.key)?.label ?? body.key;
      notifications.show({ message: `${label} is now ${body.enabled ? 'on' : 'off'}.`, color: 'green' });
    },
    onError: (error) =>
      notifications.show({
        color: 'red',
        message:
          error instanceof ApiError
            ? (error.serverMessage ?? messages.communicationError)
            : messages.communicationError,
      }),
  });

  if (modules.isPending) return <PageLoader />;
  if (modules.isError) return <Alert color="red">{messages.communicationError}</Alert>;
  const { plan_name: planName } = modules.data;
  return (
    <Stack gap="md">
      <PageTitle
        title="Modules"
        description="Turn off what your company does not use: its pages leave the menu and its booking pages close. Nothing is deleted."
      />
      <Text size="sm">
        {planName ? `Your plan: ${planName}. ` : 'You have no plan: every module is available. '}
        <Anchor component={Link} to="/admin/subscription">
          Change plan
        </Anchor>
      </Text>
      <Stack gap="sm">
        {modules.data.modules.map((m) => (
          <Card key={m.key} withBorder padding="md">
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Stack gap={4}>
                <Group gap="xs">
                  <Text fw={600}>{m.label}</Text>
                  {m.in_plan ? null : (
                    <Badge color="gray" variant="light">
                      Not in your plan
                    </Badge>
                  )}
                </Group>
                <Text size="sm" c="dimmed">
                  {m.description}
                </Text>
              </Stack>
              <Switch
                aria-label={m.label}
                checked={m.enabled}
                disabled={!m.in_plan || toggle.isPending}
                onChange={(event) => toggle.mutate({ key: m.key, enabled: event.currentTarget.checked })}
                size="md"
              />
            </Group>
          </Card>
        ))}
      </Stack>
    </Stack>
  );
}
