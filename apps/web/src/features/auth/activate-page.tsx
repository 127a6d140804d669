import { Alert, Anchor } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { messages } from '@tumble/contracts/messages';
import type { ReactNode } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { PageLoader } from '../../components/page-loader';
import { activationLinkCheckQuery } from './api/link-checks';
import { AuthCard } from './components/auth-card';

/** /admin/activate?hashcode: 0 invalid, 2 timed out, otherwise on to sign-in with the confirmation note. */
export function ActivatePage() {
  const [params] = useSearchParams();
  const hashcode = params.get('hashcode') ?? '';
  const check = useQuery({ ...activationLinkCheckQuery(hashcode), enabled: hashcode !== '' });

  if (hashcode !== '' && check.isSuccess && check.data !== 0 && check.data !== 2) {
    return <Navigate to="/admin/login?activation=1" replace />;
  }

  let content: ReactNode;
  if (hashcode === '' || check.data === 0) {
    content = (
      <Alert color="red" role="alert">
        {messages.activationInvalid}
      </Alert>
    );
  } else if (check.data === 2) {
    content = (
      <Alert color="orange" role="alert">
        {messages.activationTimedOut}
      </Alert>
    );
  } else if (check.isError) {
    content = (
      <Alert color="red" role="alert">
        {messages.formLoadFailed}
      </Alert>
    );
  } else {
    content = <PageLoader />;
  }

  return (
    <AuthCard title="Activate your account">
      {content}
      <Anchor component={Link} to="/admin/login" size="sm" ta="center">
        Back to sign in
      </Anchor>
    </AuthCard>
  );
}
