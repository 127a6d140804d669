import { Alert, Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from '@tanstack/react-query';
import { resetPasswordRequest } from '@tumble/contracts/auth';
import type { FormResponse } from '@tumble/contracts/http';
import { messages } from '@tumble/contracts/messages';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { RichTextView } from '../../admin/rich-text-view';
import {
  type FieldErrors,
  fieldErrorsFromForm,
  fieldErrorsFromZod,
  formErrorSummary,
} from '../../components/form-errors';
import { PageLoader } from '../../components/page-loader';
import { safeRedirect } from '../../components/safe-redirect';
import { resetLinkCheckQuery } from './api/link-checks';
import { resetPassword } from './api/reset-password';
import { AuthCard } from './components/auth-card';

/**
 * /admin/reset-password?hashcode: the link is checked first, then the form is shown (SPEC.md point 4).
 * An invited staff member's link carries `invitation=1`: they choose a first password, not a new one.
 */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const hashcode = params.get('hashcode') ?? '';
  const invitation = params.get('invitation') === '1';
  const check = useQuery({ ...resetLinkCheckQuery(hashcode), enabled: hashcode !== '' });

  let content: ReactNode;
  if (hashcode === '' || check.data === 0) {
    content = (
      <Alert color="red" role="alert">
        {messages.resetLinkInvalid}
      </Alert>
    );
  } else if (check.isPending) {
    content = <PageLoader />;
  } else if (check.isError) {
    content = (
      <Alert color="red" role="alert">
        {messages.formLoadFailed}
      </Alert>
    );
  } else if (check.data === 2) {
    content = (
      <Alert color="orange" role="alert">
        <Stack gap={6}>
          <Text size="sm">{messages.resetLinkTimedOut}</Text>
          <Anchor component={Link} to="/admin/forgotten-password" size="sm" fw={600}>
            Request a new link
          </Anchor>
        </Stack>
      </Alert>
    );
  } else {
    content = <ResetPasswordForm hashcode={hashcode} invitation={invitation} />;
  }

  return (
    <AuthCard title={invitation ? 'Set your password' : 'Reset your password'}>
      {content}
      <Anchor component={Link} to="/admin/login" size="sm" ta="center">
        Back to sign in
      </Anchor>
    </AuthCard>
  );
}

function ResetPasswordForm({ hashcode, invitation }: { hashcode: string; invitation: boolean }) {
  const navigate = useNavigate();
  const [values, setValues] = useState({ password: '', password2: '' });
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [summary, setSummary] = useState<string>();

  const mutation = useMutation({
    mutationFn: resetPassword,
    onSuccess: (response: FormResponse) => {
      if (!response.valid) {
        setSummary(formErrorSummary(response));
        setFieldErrors(fieldErrorsFromForm(response));
        return;
      }
      if (response.info) {
        notifications.show({ title: response.info.title, message: response.info.message, color: 'teal' });
      }
      navigate(safeRedirect(response.redirect) ?? '/admin/login', { replace: true });
    },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSummary(undefined);
    const parsed = resetPasswordRequest.safeParse({ hashcode, ...values });
    if (!parsed.success) {
      setFieldErrors(fieldErrorsFromZod(parsed.error));
      return;
    }
    setFieldErrors({});
    mutation.mutate(parsed.data);
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {mutation.isError ? (
          <Alert color="red" role="alert">
            {messages.resetPasswordFailed}
          </Alert>
        ) : null}
        {summary ? (
          <Alert color="red" role="alert" style={{ whiteSpace: 'pre-line' }}>
            <RichTextView html={summary} />
          </Alert>
        ) : null}
        <PasswordInput
          label={invitation ? 'Password' : 'New password'}
          name="password"
          autoComplete="new-password"
          withAsterisk
          value={values.password}
          onChange={(event) => {
            const { value } = event.currentTarget;
            setValues((v) => ({ ...v, password: value }));
          }}
          error={fieldErrors.password}
          aria-invalid={Boolean(fieldErrors.password)}
        />
        <PasswordInput
          label={invitation ? 'Confirm password' : 'Confirm new password'}
          name="password2"
          autoComplete="new-password"
          withAsterisk
          value={values.password2}
          onChange={(event) => {
            const { value } = event.currentTarget;
            setValues((v) => ({ ...v, password2: value }));
          }}
          error={fieldErrors.password2}
          aria-invalid={Boolean(fieldErrors.password2)}
        />
        <Button type="submit" fullWidth loading={mutation.isPending}>
          {invitation ? 'Set Password' : 'Reset Password'}
        </Button>
      </Stack>
    </form>
  );
}
