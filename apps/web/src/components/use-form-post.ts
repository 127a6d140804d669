import { useMutation } from '@tanstack/react-query';
import type { FormResponse } from '@tumble/contracts/http';
import { messages } from '@tumble/contracts/messages';
import { useState } from 'react';
import type { z } from 'zod';
import { ApiError } from '../api/client';
import { type FieldErrors, fieldErrorsFromForm, fieldErrorsFromZod, formErrorSummary } from './form-errors';

/**
 * A form that posts to a generated-form endpoint: client check with the zod schema, then the server's
 * answer (SPEC.md point 5: html_message at the top, each field in error.element marked).
 */
export function useFormPost<T>(
  schema: z.ZodType<T>,
  post: (body: T) => Promise<FormResponse>,
  options: { onAccepted?: (response: FormResponse, body: T) => void } = {},
) {
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [summary, setSummary] = useState<string>();
  const mutation = useMutation({
    mutationFn: post,
    onSuccess: (response, body) => {
      setSummary(response.valid ? undefined : formErrorSummary(response));
      setFieldErrors(response.valid ? {} : fieldErrorsFromForm(response));
      if (response.valid) options.onAccepted?.(response, body);
    },
  });

  function submit(values: unknown) {
    setSummary(undefined);
    const parsed = schema.safeParse(values);
    if (!parsed.success) {
      setFieldErrors(fieldErrorsFromZod(parsed.error));
      return;
    }
    setFieldErrors({});
    mutation.mutate(parsed.data);
  }

  const response = mutation.data;
  return {
    submit,
    fieldErrors,
    summary,
    pending: mutation.isPending,
    /** Why the post failed (no form response came back): the server's message or the communication error. */
    failure: mutation.isError ? failureText(mutation.error) : undefined,
    /** The valid response, once the server accepted the form. */
    accepted: response?.valid ? response : undefined,
  };
}

function failureText(error: Error): string {
  if (error instanceof ApiError) return error.serverMessage ?? messages.communicationError;
  return error.message || messages.communicationError;
}
