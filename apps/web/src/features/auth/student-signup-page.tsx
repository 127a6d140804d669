import { Alert, Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { studentSignupRequest } from '@tumble/contracts/auth';
import { type ChangeEvent, type FormEvent, useEffect, useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { RichTextView } from '../../admin/rich-text-view';
import { api } from '../../api/client';
import { ContactFields } from '../../components/contact-fields';
import { safeRedirect } from '../../components/safe-redirect';
import { useFormPost } from '../../components/use-form-post';
import { CompanyClosedPage, useCompanyClosed } from '../operators/company-closed-page';
import { signUpStudent } from './api/signup';
import { AuthCard } from './components/auth-card';
import { CompanyBranding } from './components/company-branding';
import { FormSuccess } from './components/form-outcome';

/** /admin/students/signup?authhash&redirect: a parent creates an account with the company named by authhash. */
export function StudentSignupPage() {
  const [params] = useSearchParams();
  const authhash = params.get('authhash') ?? '';
  // Where the parent was going (a checkout): kept through sign-up and the sign-in after it.
  const comingBack = safeRedirect(params.get('redirect'));
  const signInPath = authhash
    ? `/admin/students/login?${new URLSearchParams({ authhash, ...(comingBack ? { redirect: comingBack } : {}) })}`
    : '/admin/students/login';
  const [values, setValues] = useState({ full_name: '', email: '', phone: '', password: '' });
  const form = useFormPost(studentSignupRequest, signUpStudent);
  const set = (field: keyof typeof values) => (event: ChangeEvent<HTMLInputElement>) => {
    const { value } = event.currentTarget;
    setValues((v) => ({ ...v, [field]: value }));
  };

  useEffect(() => {
    if (authhash) api.setAuthHash(authhash);
  }, [authhash]);
  const closed = useCompanyClosed();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    form.submit({ ...values, email: values.email.trim(), authhash });
  }

  const accepted = form.accepted;
  // The server sends a new parent to sign in; one on the way to checkout keeps the way back.
  const redirect = comingBack ? signInPath : safeRedirect(accepted?.redirect);
  useEffect(() => {
    if (accepted?.info && redirect) {
      notifications.show({ title: accepted.info.title, message: accepted.info.message, color: 'teal' });
    }
  }, [accepted, redirect]);
  if (accepted && (redirect || !accepted.info)) return <Navigate to={redirect ?? signInPath} replace />;
  // A suspended company takes no new parents: bookings are closed (decision 018).
  if (closed) return <CompanyClosedPage message={closed} />;

  return (
    <AuthCard
      title="Create your parent account"
      description="Book classes, events and parties, and manage your children."
      brand={<CompanyBranding authhash={authhash || undefined} />}
    >
      {accepted ? (
        <FormSuccess info={accepted.info} backTo={signInPath} backLabel="Back to sign in" />
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            {authhash ? null : (
              <Alert color="orange" role="alert">
                This sign-up link is incomplete. Please use the link your provider sent you.
              </Alert>
            )}
            {form.failure ? (
              <Alert color="red" role="alert">
                {form.failure}
              </Alert>
            ) : null}
            {form.summary ? (
              <Alert color="red" role="alert" style={{ whiteSpace: 'pre-line' }}>
                <RichTextView html={form.summary} />
              </Alert>
            ) : null}
            <ContactFields values={values} onChange={set} errors={form.fieldErrors} phoneRequired />
            <PasswordInput
              label="Password"
              name="password"
              description="At least 8 characters."
              autoComplete="new-password"
              withAsterisk
              value={values.password}
              onChange={set('password')}
              error={form.fieldErrors.password}
              aria-invalid={Boolean(form.fieldErrors.password)}
            />
            <Button type="submit" fullWidth loading={form.pending} disabled={!authhash}>
              Create account
            </Button>
            <Text size="sm" c="dimmed" ta="center">
              Already have an account?{' '}
              <Anchor component={Link} to={signInPath} size="sm">
                Sign in
              </Anchor>
            </Text>
          </Stack>
        </form>
      )}
    </AuthCard>
  );
}
