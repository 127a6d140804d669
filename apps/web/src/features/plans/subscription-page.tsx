import { Alert, Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messages } from '@tumble/contracts/messages';
import { choosePlanResponse, type PlanOption, type SubscriptionResponse } from '@tumble/contracts/platform';
import { formatLocalDate, formatMoney } from '../../admin/format';
import { aclKeys } from '../../api/acl';
import { ApiError, api } from '../../api/client';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { modulesKeys } from '../modules/modules-api';
import { planKeys, useSubscription } from './plans-api';

const statusLabel: Record<NonNullable<SubscriptionResponse['current']>['status'], string> = {
  trialing: 'Trial',
  active: 'Active',
  past_due: 'Payment overdue',
  cancelled: 'Cancelled',
};

const limitText = (n: number | null, what: string) =>
  n === null ? `Unlimited ${what}` : `Up to ${n} ${what}`;

/** SPEC subscriptions: the company's plan, trial end and usage; the admin picks a plan. */
export function SubscriptionPage() {
  const client = useQueryClient();
  const subscription = useSubscription();
  const choose = useMutation({
    mutationFn: (plan: PlanOption) =>
      api.post('/api/v1/admin/subscription', { plan_id: plan.id }, { schema: choosePlanResponse }),
    onSuccess: (result) => {
      if (result.checkout_url) {
        window.location.assign(result.checkout_url);
        return;
      }
      notifications.show({ color: 'green', message: result.message });
      for (const queryKey of [
        planKeys.subscription,
        planKeys.limits,
        modulesKeys.enabled,
        modulesKeys.admin,
        aclKeys.all,
      ])
        void client.invalidateQueries({ queryKey });
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

  if (subscription.isPending) return <PageLoader />;
  if (subscription.isError) return <Alert color="red">{messages.communicationError}</Alert>;
  const { current, plans, usage, over_limit: overLimit } = subscription.data;
  return (
    <Stack gap="md">
      <PageTitle title="Subscription" description="Your plan with Tumble: what it includes and its limits." />
      {overLimit ? (
        <Alert color="yellow" title="Over your plan's limit" role="status">
          {overLimit}
        </Alert>
      ) : null}
      <Card withBorder padding="md">
        <Stack gap={6}>
          <Text size="sm" c="dimmed">
            Current plan
          </Text>
          {current ? (
            <>
              <Group gap="xs">
                <Title order={2} fz={22}>
                  {current.plan_name}
                </Title>
                <Badge variant="light" color={current.status === 'past_due' ? 'red' : 'teal'}>
                  {statusLabel[current.status]}
                </Badge>
              </Group>
              {current.trial_ends_on ? (
                <Text size="sm">Trial ends {formatLocalDate(current.trial_ends_on)}</Text>
              ) : null}
            </>
          ) : (
            <Text>No plan yet: every module is available. Pick a plan below.</Text>
          )}
          <Group gap="lg">
            {usage.map((u) => (
              <Text key={u.what} size="sm">
                {u.limit === null ? `${u.used} ${u.what}` : `${u.used} of ${u.limit} ${u.what}`}
              </Text>
            ))}
          </Group>
        </Stack>
      </Card>
      <Title order={2} fz={18}>
        Plans
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {plans.map((plan) => {
          const isCurrent = current?.plan_id === plan.id;
          return (
            <Card key={plan.id} withBorder padding="md">
              <Stack gap="xs" h="100%">
                <Text fw={700} fz="lg">
                  {plan.name}
                </Text>
                <Text>
                  <Text span fw={700} fz={24}>
                    {formatMoney(plan.monthly_price)}
                  </Text>{' '}
                  a month
                </Text>
                {plan.trial_days > 0 ? <Text size="sm">{plan.trial_days}-day free trial</Text> : null}
                <Text size="sm">{limitText(plan.max_children, 'children')}</Text>
                <Text size="sm">{limitText(plan.max_staff, 'staff users')}</Text>
                <Text size="sm" c="dimmed">
                  {plan.modules.length} modules
                </Text>
                <Button
                  mt="auto"
                  variant={isCurrent ? 'default' : 'filled'}
                  disabled={isCurrent}
                  loading={choose.isPending && choose.variables?.id === plan.id}
                  onClick={() => choose.mutate(plan)}
                  aria-label={isCurrent ? `Current plan: ${plan.name}` : `Choose ${plan.name}`}
                >
                  {isCurrent ? 'Current plan' : 'Choose'}
                </Button>
              </Stack>
            </Card>
          );
        })}
      </SimpleGrid>
    </Stack>
  );
}
