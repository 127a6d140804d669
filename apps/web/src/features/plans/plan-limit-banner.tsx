import { Alert, Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { usePlanLimits } from './plans-api';

/** On the dashboard: the company is over a limit of its plan; what to do (nothing was removed). */
export function PlanLimitBanner() {
  const limits = usePlanLimits();
  const notice = limits.data?.over_limit;
  if (!notice) return null;
  return (
    <Alert color="yellow" title="Over your plan's limit" role="status">
      {notice}{' '}
      <Anchor component={Link} to="/admin/subscription">
        Go to Subscription
      </Anchor>
    </Alert>
  );
}
