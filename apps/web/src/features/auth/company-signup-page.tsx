import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { companySignupRequest } from '@tumble/contracts/auth';
import { type ChangeEvent, type FormEvent, useState } from 'react';
import { Link, Navigate } from 'react-router';
import { safeRedirect } from '../../components/safe-redirect';
import { useFormPost } from '../../components/use-form-post';
import { signUpCompany } from './api/signup';
import { AuthCard } from './components/auth-card';
import { FormSuccess } from './components/form-outcome';

/** /admin/company/signup: a provider creates its company and first administrator. */
export function CompanySignupPage() {
  const [values, setValues] = useState({ company_name: '', full_name: '', email: '', password: '' });
  const form = useFormPost(companySignupRequest, signUpCompany);
  const set = (field: keyof typeof values) => (event: ChangeEvent<HTMLInputElement>) => {
    const { value } = event.currentTarget;
    setValues((v) => ({ ...v, [field]: value }));
  };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    form.submit({ ...values, email: values.email.trim() });
  }

  if (form.accepted && !form.accepted.info) {
    return <Navigate to={safeRedirect(form.accepted.redirect) ?? '/admin/login'} replace />;
  }

  return (
    <AuthCard
      title="Create your company account"
      description="Start taking bookings for classes, events and parties."
    >
      {form.accepted ? (
        <FormSuccess info={form.accepted.info} backTo="/admin/login" backLabel="Back to sign in" />
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            {form.failure ? (
              <Alert color="red" role="alert">
                {form.failure}
              </Alert>
            ) : null}
            {form.summary ? (
              <Alert color="red" role="alert" style={{ whiteSpace: 'pre-line' }}>
                {form.summary}
              </Alert>
            ) : null}
            <TextInput
              label="Company name"
              name="company_name"
              autoComplete="organization"
              withAsterisk
              value={values.company_name}
              onChange={set('company_name')}
              error={form.fieldErrors.company_name}
            />
            <TextInput
              label="Your full name"
              name="full_name"
              autoComplete="name"
              withAsterisk
              value={values.full_name}
              onChange={set('full_name')}
              error={form.fieldErrors.full_name}
            />
            <TextInput
              label="Email address"
              name="email"
              type="email"
              autoComplete="email"
              withAsterisk
              value={values.email}
              onChange={set('email')}
              error={form.fieldErrors.email}
            />
            <PasswordInput
              label="Password"
              name="password"
              description="At least 12 characters."
              autoComplete="new-password"
              withAsterisk
              value={values.password}
              onChange={set('password')}
              error={form.fieldErrors.password}
              aria-invalid={Boolean(form.fieldErrors.password)}
            />
            <Button type="submit" fullWidth loading={form.pending}>
              Create account
            </Button>
            <Text size="sm" c="dimmed" ta="center">
              Already have an account?{' '}
              <Anchor component={Link} to="/admin/login" size="sm">
                Sign in
              </Anchor>
            </Text>
          </Stack>
        </form>
      )}
    </AuthCard>
  );
}
