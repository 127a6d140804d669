import { Alert, Button, Group, Text } from '@mantine/core';
import type { AclResponse } from '@tumble/contracts/auth';
import { formatDateTime } from '../../admin/format';
import { useEndSupport } from './api';

type Support = NonNullable<AclResponse['meta']['support']>;

/**
 * Over every page while an operator acts inside a company (decision 018): whose company, why,
 * until when, and End.
 */
export function SupportBanner({ support, companyId }: { support: Support; companyId: number | null }) {
  const end = useEndSupport(companyId);
  return (
    <Alert color="orange" variant="filled" mb="md" role="status" aria-label="Support access">
      <Group justify="space-between" gap="sm">
        <Text size="sm" fw={600}>
          Support access to {support.company_name} — {support.reason}
          <Text span size="xs" fw={400}>
            {' '}
            (until {formatDateTime(support.until)})
          </Text>
        </Text>
        <Button size="xs" color="dark" loading={end.isPending} onClick={() => end.mutate()}>
          End
        </Button>
      </Group>
    </Alert>
  );
}
