import { Anchor, Group, Skeleton } from '@mantine/core';
import { Link } from 'react-router';
import { api } from '../api/client';
import { useAuthToken } from '../api/use-session';
import { CompanyBrand } from './company-brand';

interface BookingHeaderProps {
  company: { name: string; logo: string | null } | undefined;
  loading?: boolean;
}

/**
 * The company's logo and name, and for a signed-in parent a 'Go to my account' link (SPEC.md point 2):
 * the top of every public booking and checkout page (events and parties).
 */
export function BookingHeader({ company, loading = false }: BookingHeaderProps) {
  const token = useAuthToken();
  // Staff signed in on a public page get their admin area, parents their account.
  const role = api.getUserMeta()?.role;
  const accountPath = role && role !== 'student' ? '/admin' : '/admin/students/profile';
  return (
    <Group justify="space-between" align="center" gap="xs" mb="lg">
      {loading ? (
        <Group gap="sm" wrap="nowrap">
          <Skeleton height={44} width={44} radius="md" />
          <Skeleton height={18} width={160} />
        </Group>
      ) : (
        <CompanyBrand logo={company?.logo} name={company?.name} />
      )}
      {token ? (
        <Anchor component={Link} to={accountPath} size="sm" fw={600} style={{ flexShrink: 0 }}>
          Go to my account
        </Anchor>
      ) : null}
    </Group>
  );
}
