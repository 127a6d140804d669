import type { FormResponse } from '@tumble/contracts/http';
import type { z } from 'zod';

/**
 * Turns a zod failure into the generated form response of SPEC.md point 3: the first message at
 * the top and every field's messages on the field.
 */
export function formErrors(error: z.ZodError): FormResponse {
  const byField = new Map<string, string[]>();
  for (const issue of error.issues) {
    const name = issue.path.join('.') || '_form';
    byField.set(name, [...(byField.get(name) ?? []), issue.message]);
  }
  return {
    valid: false,
    error: {
      html_message: 'Please correct the errors below.',
      element: [...byField].map(([name, messages]) => ({ name, messages })),
    },
  };
}

/** Validates a form body with the same schema the SPA's form uses. */
export function parseForm<S extends z.ZodType>(
  schema: S,
  body: unknown,
): { ok: true; data: z.infer<S> } | { ok: false; response: FormResponse } {
  const parsed = schema.safeParse(body ?? {});
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false, response: formErrors(parsed.error) };
}
