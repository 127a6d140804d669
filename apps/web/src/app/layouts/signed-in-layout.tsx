import { Alert, Anchor, Button, Center, Group, Stack } from '@mantine/core';
import { messages } from '@tumble/contracts/messages';
import { useRef } from 'react';
import { Link, Navigate, useLocation } from 'react-router';
import { useAcl } from '../../api/acl';
import { api } from '../../api/client';
import { useAuthToken } from '../../api/use-session';
import { PageLoader } from '../../components/page-loader';
import { isHiddenPage, useEnabledModules } from '../../features/modules/modules-api';
import { NotFoundPage } from '../not-found-page';
import { StaffFrame } from './staff-frame';
import { StudentFrame } from './student-frame';

/** Where a signed-out visitor of `path` signs in, coming back afterwards. */
export function signInPathFor(path: string, authHash: string | null): string {
  const pathname = path.split('?')[0] ?? path;
  if (authHash && pathname.startsWith('/admin/students/')) {
    return `/admin/students/login?${new URLSearchParams({ authhash: authHash, redirect: path })}`;
  }
  return `/admin/login?${new URLSearchParams({ redirect: path })}`;
}

/** Guards the signed-in area, loads the user meta and picks the staff or the parent frame by role. */
export function SignedInLayout() {
  const token = useAuthToken();
  const location = useLocation();
  const acl = useAcl(undefined, { enabled: token !== null });
  const modules = useEnabledModules(token !== null);
  const arrivedSignedIn = useRef(token !== null);

  if (!token) {
    // A session that ends on this page (logout, or the 403 rule) leaves by itself; sending the user
    // to sign-in from here too would race that navigation.
    if (arrivedSignedIn.current) return <PageLoader />;
    return <Navigate to={signInPathFor(location.pathname + location.search, api.getAuthHash())} replace />;
  }
  if (acl.isPending) return <PageLoader />;
  if (acl.isError) {
    return (
      <Center mih="100dvh" p="md">
        <Stack maw={420} gap="md">
          <Alert color="red" role="alert">
            {messages.userMetaFailed}
          </Alert>
          <Group justify="space-between">
            <Button variant="default" onClick={() => void acl.refetch()}>
              Try again
            </Button>
            <Anchor component={Link} to="/admin/login" size="sm">
              Sign in again
            </Anchor>
          </Group>
        </Stack>
      </Center>
    );
  }
  // A page of a module the company does not have answers not found, as its API does (platform/modules.ts).
  if (modules.data && isHiddenPage(location.pathname, modules.data.hidden_pages)) return <NotFoundPage />;
  return acl.data.meta.role === 'student' ? <StudentFrame acl={acl.data} /> : <StaffFrame acl={acl.data} />;
}
