import { Alert, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type LoginRequest, loginRequest } from '@tumble/contracts/auth';
import { messages } from '@tumble/contracts/messages';
import { type FormEvent, type ReactNode, useState } from 'react';
import { aclQueryOptions } from '../../../api/acl';
import { type FieldErrors, fieldErrorsFromZod } from '../../../components/form-errors';
import { signIn, signInErrorMessage, UserMetaError } from '../api/sign-in';

interface SignInFormProps {
  /** The parent's company, on the student sign-in page. */
  authhash?: string;
  /** Runs once the token is stored and the user meta is loaded. */
  onSignedIn: () => void;
  /** Links under the button. */
  footer?: ReactNode;
}

/** SPEC.md point 4 sign-in: pending → success (token stored, user meta loaded) or failure ('Sorry!' banner). */
export function SignInForm({ authhash, onSignedIn, footer }: SignInFormProps) {
  const queryClient = useQueryClient();
  const [values, setValues] = useState({ username: '', password: '' });
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});

  const mutation = useMutation({
    mutationFn: async (body: LoginRequest) => {
      await signIn(body);
      try {
        await queryClient.fetchQuery({ ...aclQueryOptions(), staleTime: 0 });
      } catch (error) {
        throw new UserMetaError(error);
      }
    },
    onSuccess: onSignedIn,
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = loginRequest.safeParse({ ...values, authhash });
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
          <Alert color="red" title={messages.loginFailedHeading} role="alert">
            {signInErrorMessage(mutation.error)}
          </Alert>
        ) : null}
        <TextInput
          label="Email address"
          name="username"
          type="email"
          autoComplete="username"
          withAsterisk
          value={values.username}
          onChange={(event) => {
            const { value } = event.currentTarget;
            setValues((v) => ({ ...v, username: value }));
          }}
          error={fieldErrors.username}
        />
        <PasswordInput
          label="Password"
          name="password"
          autoComplete="current-password"
          withAsterisk
          value={values.password}
          onChange={(event) => {
            const { value } = event.currentTarget;
            setValues((v) => ({ ...v, password: value }));
          }}
          error={fieldErrors.password}
          aria-invalid={Boolean(fieldErrors.password)}
        />
        <Button type="submit" fullWidth loading={mutation.isPending}>
          Sign In
        </Button>
        {footer}
      </Stack>
    </form>
  );
}
