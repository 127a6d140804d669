import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { messages } from '@tumble/contracts/messages';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { safeRedirect } from '../../components/safe-redirect';
import { AuthCard } from './components/auth-card';
import { SignInForm } from './components/sign-in-form';

/** /admin/login: staff sign-in (SPEC.md point 2). */
export function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const activated = params.get('activation') === '1';

  return (
    <AuthCard title="Sign In" description="Sign in to manage your classes, events and parties.">
      {activated ? (
        <Alert color="teal" role="status">
          {messages.activationConfirmed}
        </Alert>
      ) : null}
      <SignInForm
        onSignedIn={() => navigate(safeRedirect(params.get('redirect')) ?? '/admin', { replace: true })}
        footer={
          <Stack gap={6} align="center">
            <Anchor component={Link} to="/admin/forgotten-password" size="sm">
              Forgot your password?
            </Anchor>
            <Text size="sm" c="dimmed">
              New provider?{' '}
              <Anchor component={Link} to="/admin/company/signup" size="sm">
                Create an account
              </Anchor>
            </Text>
          </Stack>
        }
      />
    </AuthCard>
  );
}
