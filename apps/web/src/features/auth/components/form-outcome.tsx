import { Alert, Anchor, Stack, Text } from '@mantine/core';
import type { FormResponse } from '@tumble/contracts/http';
import { Link } from 'react-router';

/** The info of a valid generated form response, shown in place of the form. */
export function FormSuccess({
  info,
  backTo,
  backLabel,
}: {
  info: FormResponse['info'];
  backTo: string;
  backLabel: string;
}) {
  return (
    <Stack gap="md">
      <Alert color="teal" title={info?.title} role="status">
        {info?.message ? <Text size="sm">{info.message}</Text> : null}
      </Alert>
      <Anchor component={Link} to={backTo} ta="center" size="sm">
        {backLabel}
      </Anchor>
    </Stack>
  );
}
