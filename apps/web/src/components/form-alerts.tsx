import { Alert, Stack } from '@mantine/core';
import { RichTextView } from '../admin/rich-text-view';

/**
 * What went wrong with a form post, above the form: the failure of the request itself, and the
 * generated form response's html_message as (allow-listed) HTML (SPEC.md point 5).
 */
export function FormAlerts({ failure, summary }: { failure?: string; summary?: string }) {
  if (!failure && !summary) return null;
  return (
    <Stack gap="xs">
      {failure ? (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      ) : null}
      {summary ? (
        <Alert color="red" role="alert" style={{ whiteSpace: 'pre-line' }} data-testid="form-summary">
          <RichTextView html={summary} />
        </Alert>
      ) : null}
    </Stack>
  );
}
