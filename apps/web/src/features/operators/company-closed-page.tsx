import { Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useSearchParams } from 'react-router';
import { useAcl } from '../../api/acl';
import { ApiError } from '../../api/client';
import { Wordmark } from '../../components/wordmark';

/**
 * A suspended company's public pages (booking, party, registration) answer 410 company_closed: the
 * visitor sees that bookings are closed rather than a page that does not exist (decision 018).
 */
export function CompanyClosedPage({ message }: { message: string }) {
  useDocumentTitle('Bookings are closed · Tumble');
  return (
    <Center mih="60dvh" p="md">
      <Paper withBorder shadow="sm" radius="md" p="xl" maw={460} w="100%">
        <Stack gap="md" align="center" ta="center">
          <Wordmark fz={28} />
          <Title order={1} fz={26}>
            Bookings are closed
          </Title>
          <Text>{message}</Text>
          <Text c="dimmed" size="sm">
            Please contact the provider directly. Bookings you have already made are kept.
          </Text>
        </Stack>
      </Paper>
    </Center>
  );
}

/** The closed message when the page's authhash names a suspended company; null otherwise. */
export function useCompanyClosed(): string | null {
  const [params] = useSearchParams();
  const authhash = params.get('authhash') ?? undefined;
  const acl = useAcl(authhash, { enabled: Boolean(authhash) });
  const error = acl.error;
  if (!(error instanceof ApiError) || error.status !== 410) return null;
  const reason = (error.body as { reason?: unknown } | null)?.reason;
  return reason === 'company_closed' ? (error.serverMessage ?? 'Bookings are closed.') : null;
}
