import { Card, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { roleLabels } from '@tumble/contracts/auth';
import { Navigate } from 'react-router';
import { useAcl } from '../../api/acl';
import { PageLoader } from '../../components/page-loader';

/** /admin/dashboard: where staff land after signing in. */
export function DashboardPage() {
  useDocumentTitle('Dashboard · Tumble');
  const acl = useAcl();
  if (!acl.data) return <PageLoader />;
  const { name, meta } = acl.data;
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
          Welcome to {meta.company_name ?? 'Tumble'}. Use the menu to manage classes, terms, students, events
          and birthday parties.
        </Text>
      </Card>
    </Stack>
  );
}
