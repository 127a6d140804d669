import { Alert, Button, Card, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { ApiError } from '../../api/client';
import { unsubscribe } from './communications-api';

/**
 * The link in every marketing mail (/unsubscribe/:token): one button confirms. Mail clients'
 * own Unsubscribe button posts to the same link without this page (RFC 8058 one-click).
 */
export function UnsubscribePage() {
  useDocumentTitle('Unsubscribe · Tumble');
  const token = useParams().token ?? '';
  const confirm = useMutation({ mutationFn: () => unsubscribe(token) });
  return (
    <Card withBorder padding="lg">
      <Stack gap="md">
        <Title order={1} fz={24}>
          Unsubscribe
        </Title>
        {confirm.data ? (
          <Alert color="green" title="You are unsubscribed">
            {confirm.data.company} will not send you marketing emails any more. You will still get emails
            about your bookings, enrolments and invoices.
          </Alert>
        ) : (
          <>
            <Text>Stop marketing emails (news and offers) to this address?</Text>
            <Text size="sm" c="dimmed">
              Emails about your bookings, enrolments and invoices still come.
            </Text>
            {confirm.isError ? (
              <Alert color="red">
                {confirm.error instanceof ApiError && confirm.error.serverMessage
                  ? confirm.error.serverMessage
                  : 'Something went wrong. Please try again.'}
              </Alert>
            ) : null}
            <Button onClick={() => confirm.mutate()} loading={confirm.isPending}>
              Unsubscribe
            </Button>
          </>
        )}
      </Stack>
    </Card>
  );
}
