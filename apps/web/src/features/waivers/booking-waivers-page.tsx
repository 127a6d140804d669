import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  CopyButton,
  Group,
  Loader,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { messages } from '@tumble/contracts/messages';
import {
  type AdminWaiverStatusResponse,
  adminWaiverResendResponse,
  adminWaiverStatusResponse,
  type WaiverKind,
  waiverMessages,
} from '@tumble/contracts/waiver';
import { Link, useParams } from 'react-router';
import { formatLocalDate } from '../../admin/format';
import { ApiError, api } from '../../api/client';
import { useFileDownload } from '../../components/file-download';
import { PageTitle } from '../../components/page-title';

type Person = AdminWaiverStatusResponse['people'][number];

/** GET /api/v1/admin/waivers/status: who on one booking has a signed waiver. */
export function fetchBookingWaivers(kind: WaiverKind, bookingId: number, signal?: AbortSignal) {
  return api.get('/api/v1/admin/waivers/status', {
    query: { kind, booking_id: bookingId },
    schema: adminWaiverStatusResponse,
    signal,
  });
}

/** POST /api/v1/admin/waivers/resend: emails the parent the signing link(s) again. */
export function resendWaiverRequest(kind: WaiverKind, bookingId: number) {
  return api.post(
    '/api/v1/admin/waivers/resend',
    { kind, booking_id: bookingId },
    { schema: adminWaiverResendResponse },
  );
}

const signedPdfPath = (signedWaiverId: number) => `/api/v1/admin/signed-waivers/${signedWaiverId}/pdf`;

function PersonStatus({
  person,
  downloading,
  onDownload,
}: {
  person: Person;
  downloading: boolean;
  onDownload: (signedWaiverId: number) => void;
}) {
  if (person.status === 'needed') {
    return (
      <Badge color="orange" variant="light">
        Needs waiver
      </Badge>
    );
  }
  const signedWaiverId = person.signed_waiver_id;
  return (
    <Group gap="sm" wrap="wrap">
      <Text size="sm">
        Signed on {formatLocalDate(person.signed_at)}
        {person.signer_name ? ` by ${person.signer_name}` : ''}
      </Text>
      {signedWaiverId !== null ? (
        <Button
          size="compact-sm"
          variant="light"
          loading={downloading}
          onClick={() => onDownload(signedWaiverId)}
          aria-label={`Download PDF of ${person.name}'s waiver`}
        >
          Download PDF
        </Button>
      ) : null}
    </Group>
  );
}

function ResendButton({ kind, bookingId }: { kind: WaiverKind; bookingId: number }) {
  const resend = useMutation({ mutationFn: () => resendWaiverRequest(kind, bookingId) });
  const failure = resend.isError
    ? (resend.error instanceof ApiError && resend.error.serverMessage) || messages.communicationError
    : undefined;
  return (
    <Stack gap="xs">
      <Group>
        <Button variant="default" loading={resend.isPending} onClick={() => resend.mutate()}>
          Resend waiver request
        </Button>
      </Group>
      {resend.data ? (
        <Alert color={resend.data.success ? 'teal' : 'red'} role={resend.data.success ? 'status' : 'alert'}>
          {resend.data.message}
        </Alert>
      ) : null}
      {failure ? (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      ) : null}
    </Stack>
  );
}

function BookingWaivers({
  kind,
  bookingId,
  back,
}: {
  kind: WaiverKind;
  bookingId: number | null;
  back: string;
}) {
  const status = useQuery({
    queryKey: ['admin', 'waivers', kind, bookingId],
    queryFn: ({ signal }) => fetchBookingWaivers(kind, bookingId!, signal),
    enabled: bookingId !== null,
  });
  const pdfs = useFileDownload();
  const backLink = (
    <Anchor component={Link} to={back} size="sm">
      ← Back to bookings
    </Anchor>
  );

  if (bookingId === null || (status.error instanceof ApiError && status.error.status === 404)) {
    return (
      <Stack>
        {backLink}
        <Alert color="red" role="alert">
          This booking does not exist.
        </Alert>
      </Stack>
    );
  }
  if (status.isError) {
    return (
      <Stack>
        {backLink}
        <Alert color="red" role="alert">
          {messages.formLoadFailed}
        </Alert>
      </Stack>
    );
  }
  if (status.isPending) return <Loader aria-label="Loading" />;

  const { title, reference, people, links } = status.data;
  const needed = people.filter((p) => p.status === 'needed').length;
  return (
    <Stack maw={1100} w="100%">
      {backLink}
      <PageTitle
        title="Waivers"
        description={`${title} · Ref ${reference}`}
        actions={
          <Badge color={needed > 0 ? 'orange' : 'teal'} variant="light" size="lg">
            {needed > 0 ? `${needed} still to sign` : 'All signed'}
          </Badge>
        }
      />
      {pdfs.failure ? (
        <Alert color="red" role="alert">
          {pdfs.failure}
        </Alert>
      ) : null}
      <Card withBorder padding={0}>
        {/* Narrow enough for a phone: names and the signed line wrap rather than scroll sideways. */}
        <Table.ScrollContainer minWidth={340} type="native" tabIndex={0}>
          <Table striped verticalSpacing="sm" aria-label="People on this booking">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Waiver</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {people.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={3}>
                    <Text c="dimmed" size="sm">
                      No one on this booking needs a waiver.
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : (
                people.map((person, index) => (
                  // Two guests can share a name; the order is the server's and stable.
                  // biome-ignore lint/suspicious/noArrayIndexKey: people have no id of their own here.
                  <Table.Tr key={index}>
                    <Table.Td>{person.name}</Table.Td>
                    <Table.Td>{person.role === 'guest' ? 'Guest' : 'Child'}</Table.Td>
                    <Table.Td>
                      <PersonStatus
                        person={person}
                        downloading={
                          person.signed_waiver_id !== null &&
                          pdfs.pendingPath === signedPdfPath(person.signed_waiver_id)
                        }
                        onDownload={(id) => pdfs.download(signedPdfPath(id), `signed-waiver-${id}.pdf`)}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>
      <Card withBorder>
        <Stack gap="sm">
          <Title order={3} fz="md">
            Signing links
          </Title>
          {links.length === 0 ? (
            <Text c="dimmed" size="sm">
              {waiverMessages.notNeeded}
            </Text>
          ) : (
            <Stack
              gap="xs"
              component="ul"
              m={0}
              p={0}
              style={{ listStyle: 'none' }}
              aria-label="Signing links"
            >
              {links.map((link) => (
                <Group key={link.url} component="li" gap="xs" wrap="nowrap" justify="space-between">
                  <Stack gap={0} miw={0}>
                    <Text size="sm" fw={500}>
                      {link.name}
                    </Text>
                    <Anchor
                      href={link.url}
                      target="_blank"
                      rel="noreferrer"
                      size="sm"
                      style={{ wordBreak: 'break-all' }}
                    >
                      {link.url}
                    </Anchor>
                  </Stack>
                  <CopyButton value={link.url}>
                    {({ copied, copy }) => (
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        // A long link must not squeeze the button out of the card on a phone.
                        style={{ flexShrink: 0 }}
                        onClick={copy}
                        aria-label={`Copy ${link.name} link`}
                      >
                        {copied ? 'Copied' : 'Copy'}
                      </Button>
                    )}
                  </CopyButton>
                </Group>
              ))}
            </Stack>
          )}
          <ResendButton kind={kind} bookingId={bookingId} />
        </Stack>
      </Card>
    </Stack>
  );
}

function positiveId(raw: string | undefined): number | null {
  return raw && /^\d{1,10}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
}

/** /admin/events/:eventId/bookings/:id/booking-waivers: the waivers of one event booking. */
export function EventBookingWaiversPage() {
  const { eventId, id } = useParams();
  return (
    <BookingWaivers
      kind="event"
      bookingId={positiveId(id)}
      back={`/admin/events/${eventId ?? ''}/bookings`}
    />
  );
}

/** /admin/party-bookings/:id/party-waivers: the waivers of one party booking, guests included. */
export function PartyBookingWaiversPage() {
  return <BookingWaivers kind="party" bookingId={positiveId(useParams().id)} back="/admin/party-bookings" />;
}
