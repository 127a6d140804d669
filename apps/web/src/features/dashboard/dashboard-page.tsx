import { Card, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { roleLabels } from '@tumble/contracts/auth';
import { Navigate } from 'react-router';
import { useAcl } from '../../api/acl';
import { PageLoader } from '../../components/page-loader';
import { CoachAlerts } from '../coaches/coach-alerts';
import { AnomalyAlert } from '../registration-forms/anomaly-alert';

/** What staff do in each sidebar group, as the dashboard says it. */
const groupWork: Record<string, string> = {
  Classes: 'classes',
  Events: 'events and their bookings',
  Parties: 'birthday parties',
  Families: 'parents',
  Money: 'payments, pricing and discounts',
  Communications: 'mail',
  Reports: 'reports',
  Settings: 'venues, waivers and settings',
};

/** 'a', 'a and b', 'a, b and c'. */
const sentence = (parts: string[]) =>
  parts.length < 2 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;

/** /admin/dashboard: where staff land after signing in. */
export function DashboardPage() {
  useDocumentTitle('Dashboard · Tumble');
  const acl = useAcl();
  if (!acl.data) return <PageLoader />;
  const { name, meta, navigation } = acl.data;
  // Only what this role can open today: the sidebar's groups, in words.
  const groups = new Set(navigation.side.map((item) => item.group));
  const work = Object.entries(groupWork)
    .filter(([group]) => groups.has(group))
    .map(([, words]) => words);
  // Parents have their own home.
  if (meta.role === 'student') return <Navigate to="/admin/students/profile" replace />;
  return (
    <Stack gap="lg" maw={960}>
      <Stack gap={4}>
        <Title order={1} fz={{ base: 24, sm: 30 }}>
          {meta.company_name ?? 'Dashboard'}
        </Title>
        <Text c="dimmed">
          Welcome{name ? `, ${name}` : ''}
          {meta.role ? ` · ${roleLabels[meta.role]}` : ''}
        </Text>
      </Stack>
      <Card>
        <Text>
          Welcome to {meta.company_name ?? 'Tumble'}.
          {work.length ? ` Use the menu to work with ${sentence(work)}.` : ''}
        </Text>
      </Card>
      {/* Staff who decide on registration anomalies see how many are open. */}
      {navigation.side.some((item) => item.path === '/admin/registration-anomalies') ? (
        <AnomalyAlert />
      ) : null}
      {/* Staff who keep coach profiles see expiring checks and sessions needing cover. */}
      {navigation.side.some((item) => item.path === '/admin/coaches') ? <CoachAlerts /> : null}
    </Stack>
  );
}
