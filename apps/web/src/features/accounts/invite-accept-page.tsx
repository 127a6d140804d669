import { Alert, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  type InviteAcceptRequest,
  inviteAcceptRequest,
  inviteAcceptResponse,
  inviteCheckResponse,
} from '@tumble/contracts/class-students';
import { messages } from '@tumble/contracts/messages';
import { type FormEvent, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError, api } from '../../api/client';
import { type FieldErrors, fieldErrorsFromZod } from '../../components/form-errors';
import { PageLoader } from '../../components/page-loader';
import { safeRedirect } from '../../components/safe-redirect';
import { signIn } from '../auth/api/sign-in';
import { AuthCard } from '../auth/components/auth-card';

/**
 * `/admin/students/invite/accept?hashcode&f&authhash`: a family invited by staff chooses a
 * password, is signed in and lands on the registration form (SPEC students/invite).
 */
export function InviteAcceptPage() {
  const [params] = useSearchParams();
  const hashcode = params.get('hashcode') ?? '';
  const formKey = params.get('f') ?? '';
  const check = useQuery({
    queryKey: ['invite', hashcode],
    queryFn: ({ signal }) =>
      api.get('/api/v1/students/invite', { query: { hashcode }, schema: inviteCheckResponse, signal }),
    enabled: hashcode !== '',
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const state = hashcode === '' ? 0 : check.data?.state;
  return (
    <AuthCard
      title="Set your password"
      description={
        check.data?.full_name
          ? `Welcome, ${check.data.full_name}. Choose a password for ${check.data.email}.`
          : undefined
      }
    >
      {state === 0 ? (
        <Alert color="red" role="alert">
          {messages.activationInvalid}
        </Alert>
      ) : state === 2 ? (
        <Alert color="orange" role="alert">
          {messages.activationTimedOut} Please ask us to send the invitation again.
        </Alert>
      ) : check.isError ? (
        <Alert color="red" role="alert">
          {messages.formLoadFailed}
        </Alert>
      ) : state === 1 ? (
        <PasswordForm hashcode={hashcode} formKey={formKey} />
      ) : (
        <PageLoader />
      )}
    </AuthCard>
  );
}

function PasswordForm({ hashcode, formKey }: { hashcode: string; formKey: string }) {
  const navigate = useNavigate();
  const [values, setValues] = useState({ password: '', password2: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [summary, setSummary] = useState<string>();
  const mutation = useMutation({
    mutationFn: async (body: InviteAcceptRequest) => {
      const answer = await api.post('/api/v1/students/invite', body, {
        query: { f: formKey },
        schema: inviteAcceptResponse,
      });
      // Signed in with the new password, so the form knows the family at once.
      if (answer.valid && answer.email)
        await signIn({ username: answer.email, password: body.password, authhash: answer.authhash });
      return answer;
    },
    onSuccess: (answer) => {
      if (!answer.valid) {
        if (answer.field) setErrors({ [answer.field]: answer.message });
        else setSummary(answer.message);
        return;
      }
      navigate(safeRedirect(answer.redirect) ?? '/admin/students/profile', { replace: true });
    },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSummary(undefined);
    const parsed = inviteAcceptRequest.safeParse({ hashcode, ...values });
    if (!parsed.success) {
      setErrors(fieldErrorsFromZod(parsed.error));
      return;
    }
    setErrors({});
    mutation.mutate(parsed.data);
  }

  const failure = mutation.isError
    ? mutation.error instanceof ApiError
      ? (mutation.error.serverMessage ?? messages.communicationError)
      : messages.communicationError
    : summary;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {failure ? (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        ) : null}
        <PasswordInput
          label="Password"
          name="password"
          autoComplete="new-password"
          withAsterisk
          value={values.password}
          onChange={(e) => {
            const { value } = e.currentTarget;
            setValues((v) => ({ ...v, password: value }));
          }}
          error={errors.password}
        />
        <PasswordInput
          label="Confirm password"
          name="password2"
          autoComplete="new-password"
          withAsterisk
          value={values.password2}
          onChange={(e) => {
            const { value } = e.currentTarget;
            setValues((v) => ({ ...v, password2: value }));
          }}
          error={errors.password2}
        />
        <Text size="xs" c="dimmed">
          At least 8 characters.
        </Text>
        <Button type="submit" fullWidth loading={mutation.isPending}>
          Set Password
        </Button>
      </Stack>
    </form>
  );
}
