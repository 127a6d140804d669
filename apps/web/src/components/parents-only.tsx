import { Anchor, Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { type Role, roleLabels } from '@tumble/contracts/auth';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useAcl } from '../api/acl';
import { api } from '../api/client';
import { useAuthToken, useUserMeta } from '../api/use-session';
import { PageLoader } from './page-loader';
import { studentLoginPath } from './student-login-link';

/**
 * A public checkout page is for signed-in parents (SPEC.md point 2): a visitor without a token goes
 * to the company's parent sign-in and comes back here. The page's authhash is remembered. Someone
 * signed in with a staff account is told the page is for parents, and may sign in as one: their
 * calls would answer 403 `wrong_role`, which is not an expired session (decision 004).
 */
export function ParentsOnly({
  children,
}: {
  children: (authhash: string, params: URLSearchParams) => ReactNode;
}) {
  const token = useAuthToken();
  const meta = useUserMeta();
  const location = useLocation();
  const [params] = useSearchParams();
  const authhash = params.get('authhash') ?? '';
  // The role is remembered from the last GET /rest/acl; ask once when it is not known yet.
  const acl = useAcl(undefined, { enabled: Boolean(token) && !meta?.role });

  useEffect(() => {
    if (authhash) api.setAuthHash(authhash);
  }, [authhash]);

  const here = location.pathname + location.search;
  if (!token) return <Navigate to={studentLoginPath(authhash, here)} replace />;
  const role = meta?.role ?? acl.data?.meta.role ?? null;
  if (!role && acl.isPending) return <PageLoader />;
  if (role && role !== 'student') return <ForParentsOnly role={role} authhash={authhash} here={here} />;
  return <>{children(authhash, params)}</>;
}

/** What a staff member sees on a parent's page: whose page it is, and how to sign in as a parent. */
function ForParentsOnly({ role, authhash, here }: { role: Role; authhash: string; here: string }) {
  useDocumentTitle('This page is for parents · Tumble');
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);

  async function signInAsParent() {
    setPending(true);
    try {
      await api.post('/rest/logout');
    } catch {
      // The staff session ends in this browser whatever the server answered.
    }
    api.clearSession({ keepAuthHash: true });
    await navigate(studentLoginPath(authhash, here), { replace: true });
  }

  return (
    <Center py={{ base: 'lg', sm: 'xl' }} px="md">
      <Paper withBorder shadow="sm" radius="md" p={{ base: 'lg', sm: 'xl' }} w="100%" maw={480}>
        <Stack gap="md">
          <Title order={1} fz={{ base: 24, sm: 28 }} ta="center">
            This page is for parents
          </Title>
          <Text size="sm" ta="center">
            You are signed in with a staff account ({roleLabels[role]}). Bookings are made by parents with
            their own account; signing in as a parent signs you out of this one.
          </Text>
          <Button onClick={signInAsParent} loading={pending} fullWidth>
            Sign in as a parent
          </Button>
          <Anchor component={Link} to="/admin" size="sm" ta="center">
            Back to the admin area
          </Anchor>
        </Stack>
      </Paper>
    </Center>
  );
}

/** Errors show above the form: bring them into view. */
export function scrollToTop(): void {
  window.scrollTo({ top: 0, behavior: 'smooth' });
}
