import { Alert, Anchor, Button, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { forgottenPasswordRequest } from '@tumble/contracts/auth';
import { messages } from '@tumble/contracts/messages';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { type FieldErrors, fieldErrorsFromZod } from '../../components/form-errors';
import { requestPasswordReset } from './api/forgotten-password';
import { AuthCard } from './components/auth-card';
import { CompanyBranding } from './components/company-branding';

/**
 * /admin/forgotten-password, and /admin/students/forgotten-password?authhash for parents: asks for a
 * reset link by email.
 */
export function ForgottenPasswordPage() {
  const [params] = useSearchParams();
  const authhash = params.get('authhash') || undefined;
  const signInPath = authhash ? `/admin/students/login?${new URLSearchParams({ authhash })}` : '/admin/login';
  const [email, setEmail] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const mutation = useMutation({ mutationFn: requestPasswordReset });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = forgottenPasswordRequest.safeParse({ email: email.trim(), authhash });
    if (!parsed.success) {
      setFieldErrors(fieldErrorsFromZod(parsed.error));
      return;
    }
    setFieldErrors({});
    mutation.mutate(parsed.data);
  }

  return (
    <AuthCard
      title="Forgot your password?"
      description="Enter your email address and we will send you a link to choose a new password."
      brand={authhash ? <CompanyBranding authhash={authhash} /> : undefined}
    >
      {mutation.isSuccess ? (
        <Alert color="teal" role="status">
          {mutation.data}
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            {mutation.isError ? (
              <Alert color="red" role="alert">
                {messages.forgotPasswordFailed}
              </Alert>
            ) : null}
            <TextInput
              label="Email address"
              name="email"
              type="email"
              autoComplete="email"
              withAsterisk
              value={email}
              onChange={(event) => setEmail(event.currentTarget.value)}
              error={fieldErrors.email}
            />
            <Button type="submit" fullWidth loading={mutation.isPending}>
              Send reset link
            </Button>
          </Stack>
        </form>
      )}
      <Anchor component={Link} to={signInPath} size="sm" ta="center">
        Back to sign in
      </Anchor>
    </AuthCard>
  );
}
