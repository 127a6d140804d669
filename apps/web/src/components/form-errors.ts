import type { FormResponse } from '@tumble/contracts/http';
import type { z } from 'zod';

/** Field name → the message shown under that field. */
export type FieldErrors = Partial<Record<string, string>>;

/** The first message per top-level field of a failed client-side check. */
export function fieldErrorsFromZod(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path[0];
    if (field === undefined) continue;
    const name = String(field);
    errors[name] ??= issue.message;
  }
  return errors;
}

/** SPEC.md point 5: each field in error.element is marked with its messages. */
export function fieldErrorsFromForm(response: FormResponse): FieldErrors {
  const errors: FieldErrors = {};
  for (const element of response.error?.element ?? []) {
    if (element.messages.length > 0) errors[element.name] = element.messages.join(' ');
  }
  return errors;
}

/**
 * The summary shown above a form whose response was not valid: error.html_message, which is HTML
 * (SPEC.md point 5). Show it with <RichTextView>, which rebuilds only allow-listed tags and never injects it.
 */
export function formErrorSummary(response: FormResponse): string | undefined {
  return response.error?.html_message?.trim() || undefined;
}
