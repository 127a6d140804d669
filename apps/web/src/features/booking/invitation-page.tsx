import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { messages } from '@tumble/contracts/messages';
import { type ReactNode, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useAcl } from '../../api/acl';
import { ApiError, api } from '../../api/client';
import { BookingHeader } from '../../components/booking-header';
import { PageLoader } from '../../components/page-loader';
import { formatDayWithWeekday } from '../students/student-format';
import { type InvitationParams, invitationCall } from './api/invitation';
import { bookingPath } from './booking-links';

/**
 * /events/invitation/confirm/?authhash&w&e&b (SPEC.md point 4): a waitlisted place has freed up.
 * Valid: Accept (on to /booking with e and b) or Decline (then checked again). Invalid, or no
 * longer valid: 'Invitation Confirmed!' or the server's message.
 */
export function InvitationPage() {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const params: InvitationParams = {
    authhash: search.get('authhash') ?? '',
    w: search.get('w') ?? '',
    e: search.get('e') ?? '',
    b: search.get('b') ?? '',
  };
  const acl = useAcl(params.authhash || undefined, { enabled: params.authhash !== '' });
  const check = useQuery({
    queryKey: ['booking', 'invitation', params],
    queryFn: ({ signal }) => invitationCall('check', params, signal),
    retry: false,
  });
  const [busy, setBusy] = useState<'accept' | 'decline' | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useDocumentTitle('Waitlist invitation');

  useEffect(() => {
    if (params.authhash) api.setAuthHash(params.authhash);
  }, [params.authhash]);

  async function accept() {
    setBusy('accept');
    setFailure(null);
    try {
      const answer = await invitationCall('accept', params);
      if (answer.valid) {
        // The booking page opens on the sessions with the held day chosen (issue 21 point 4).
        const place = check.data?.place;
        navigate(
          bookingPath(
            params.authhash,
            params.e,
            params.b,
            place && { cell: place.cell, places: place.places },
          ),
        );
        return;
      }
      setOutcome(answer.message ?? '');
    } catch (error) {
      setFailure(errorText(error));
    } finally {
      setBusy(null);
    }
  }

  async function decline() {
    setBusy('decline');
    setFailure(null);
    try {
      await invitationCall('decline', params);
      // SPEC.md point 4: after a decline the invitation is checked again.
      await check.refetch();
    } catch (error) {
      setFailure(errorText(error));
    } finally {
      setBusy(null);
    }
  }

  const company = acl.data ? { name: acl.data.meta.company_name ?? '', logo: acl.data.meta.logo } : undefined;
  let body: ReactNode;
  if (check.isPending) {
    body = <PageLoader />;
  } else if (outcome !== null || check.isError || !check.data.valid) {
    // SPEC.md point 4: an invalid invitation shows 'Invitation Confirmed!'; the server's reason, if
    // it gave one, follows.
    const detail =
      outcome ??
      (check.isError
        ? check.error instanceof ApiError
          ? check.error.serverMessage
          : check.error.message
        : check.data.message);
    body = (
      <Stack gap="sm" align="center" ta="center" data-testid="invitation-closed">
        <Title order={1} size="h3">
          {messages.invitationConfirmed}
        </Title>
        {detail && detail !== messages.invitationConfirmed ? <Text c="dimmed">{detail}</Text> : null}
      </Stack>
    );
  } else {
    const { place } = check.data;
    body = (
      <Stack gap="md">
        <Title order={1} size="h3">
          A place is available
        </Title>
        {place ? (
          <Stack gap={2} data-testid="invitation-place">
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {place.event_name}
            </Text>
            <Text>
              {place.session_name} · {formatDayWithWeekday(place.date)}
            </Text>
            <Text size="sm" c="dimmed">
              {place.places === 1 ? '1 place' : `${place.places} places`}
            </Text>
          </Stack>
        ) : null}
        <Text>
          A place has freed up for the session you waitlisted. Accept to book it now, or decline to offer it
          to the next family.
        </Text>
        {failure ? (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        ) : null}
        <Group grow>
          <Button onClick={() => void accept()} loading={busy === 'accept'} disabled={busy !== null}>
            Accept
          </Button>
          <Button
            variant="default"
            onClick={() => void decline()}
            loading={busy === 'decline'}
            disabled={busy !== null}
          >
            Decline
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <Stack maw={560} mx="auto" gap={0}>
      <BookingHeader company={company} loading={acl.isLoading} />
      <Card>{body}</Card>
    </Stack>
  );
}

function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage ?? messages.checkoutFailed;
  return error instanceof Error ? error.message : messages.checkoutFailed;
}
