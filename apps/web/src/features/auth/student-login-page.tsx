import { Anchor, Group } from '@mantine/core';
import { useEffect } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { safeRedirect } from '../../components/safe-redirect';
import { CompanyClosedPage, useCompanyClosed } from '../operators/company-closed-page';
import { AuthCard } from './components/auth-card';
import { CompanyBranding } from './components/company-branding';
import { SignInForm } from './components/sign-in-form';

/**
 * /admin/students/login?authhash&(id|redirect): parent sign-in (the redirect passes through Create an account), branded with the company named by
 * authhash. `id` (the company id the 403 rule adds) needs nothing here: the authhash names the company.
 */
export function StudentLoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const authhash = params.get('authhash') || undefined;
  const redirect = safeRedirect(params.get('redirect'));
  const query = authhash ? `?${new URLSearchParams({ authhash })}` : '';
  // A new parent who came from checkout goes back there after signing up and signing in.
  const signupQuery = authhash
    ? `?${new URLSearchParams({ authhash, ...(redirect ? { redirect } : {}) })}`
    : '';

  useEffect(() => {
    if (authhash) api.setAuthHash(authhash);
  }, [authhash]);
  // A suspended company's parents are told bookings are closed (decision 018).
  const closed = useCompanyClosed();
  if (closed) return <CompanyClosedPage message={closed} />;

  return (
    <AuthCard
      title="Parent Sign In"
      description="Sign in to book, pay and manage your children."
      brand={<CompanyBranding authhash={authhash} />}
    >
      <SignInForm
        authhash={authhash}
        onSignedIn={() => navigate(redirect ?? '/admin/students/profile', { replace: true })}
        footer={
          <Group justify="space-between" gap="xs">
            <Anchor component={Link} to={`/admin/students/forgotten-password${query}`} size="sm">
              Forgot your password?
            </Anchor>
            <Anchor component={Link} to={`/admin/students/signup${signupQuery}`} size="sm">
              Create an account
            </Anchor>
          </Group>
        }
      />
    </AuthCard>
  );
}
