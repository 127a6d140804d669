import { Alert, Anchor, Badge, Button, Card, Divider, Grid, Group, Stack, Text, Title } from '@mantine/core';
import type { BookingEvent } from '@tumble/contracts/booking';
import { messages } from '@tumble/contracts/messages';
import { ServerHtml } from '../../../components/server-html';
import { ageRangeText, formatDate, venueMapLink } from '../booking-format';

interface EventDetailsProps {
  event: BookingEvent;
  /** False when no session-day can be booked or waitlisted. */
  bookable: boolean;
  onBookNow: () => void;
}

/** Downloads and other staff links: only web addresses and site paths, never script URLs. */
function safeHref(href: string): string | undefined {
  if (href.startsWith('/') && !href.startsWith('//')) return href;
  try {
    const url = new URL(href);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function eventDates(event: BookingEvent): string {
  const start = formatDate(event.start_date);
  return event.start_date === event.end_date ? start : `${start} – ${formatDate(event.end_date)}`;
}

/** Step 1 of /booking: what the event is, where and when, and Book Now. */
export function EventDetails({ event, bookable, onBookNow }: EventDetailsProps) {
  const ages = ageRangeText(event.age_start, event.age_end);
  const venue = event.Venue;
  const downloads = event.Downloads.map((d) => ({ ...d, href: safeHref(d.file) })).filter((d) => d.href);

  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Card>
          <Stack gap="md">
            <Stack gap={6}>
              <Title order={1} fz={{ base: 24, sm: 30 }}>
                {event.name}
              </Title>
              <Group gap="xs">
                <Badge variant="light" size="lg" radius="sm" tt="none">
                  {eventDates(event)}
                </Badge>
                {ages ? (
                  <Badge variant="light" color="grape" size="lg" radius="sm" tt="none">
                    {ages}
                  </Badge>
                ) : null}
              </Group>
            </Stack>
            {event.intro ? <ServerHtml html={event.intro} fz="lg" /> : null}
            <Stack gap="xs" align="flex-start">
              <Button size="md" onClick={onBookNow} disabled={!bookable} w={{ base: '100%', xs: 240 }}>
                Book Now
              </Button>
              {bookable ? null : (
                <Alert color="orange" role="status">
                  {messages.noSessions}
                </Alert>
              )}
            </Stack>
            {event.full ? (
              <>
                <Divider />
                <ServerHtml html={event.full} />
              </>
            ) : null}
          </Stack>
        </Card>
      </Grid.Col>

      <Grid.Col span={{ base: 12, md: 4 }}>
        <Stack gap="lg">
          {venue ? (
            <Card>
              <Stack gap={4}>
                <Title order={2} size="h4">
                  Venue
                </Title>
                <Text fw={600}>{venue.name}</Text>
                {venue.address ? <Text size="sm">{venue.address}</Text> : null}
                {venue.suburb || venue.postcode ? (
                  <Text size="sm">{[venue.suburb, venue.postcode].filter(Boolean).join(' ')}</Text>
                ) : null}
                <Anchor href={venueMapLink(venue)} target="_blank" rel="noopener noreferrer" size="sm" mt={4}>
                  View on map
                </Anchor>
              </Stack>
            </Card>
          ) : null}

          {event.Contacts.length > 0 ? (
            <Card>
              <Stack gap="sm">
                <Title order={2} size="h4">
                  Contacts
                </Title>
                {event.Contacts.map((contact) => (
                  <Stack key={`${contact.name}-${contact.email ?? ''}`} gap={2}>
                    <Text fw={600} size="sm">
                      {contact.name}
                    </Text>
                    {contact.email ? (
                      <Anchor href={`mailto:${contact.email}`} size="sm">
                        {contact.email}
                      </Anchor>
                    ) : null}
                    {contact.phone ? (
                      <Anchor href={`tel:${contact.phone.replace(/\s+/g, '')}`} size="sm">
                        {contact.phone}
                      </Anchor>
                    ) : null}
                  </Stack>
                ))}
              </Stack>
            </Card>
          ) : null}

          {downloads.length > 0 ? (
            <Card>
              <Stack gap="xs">
                <Title order={2} size="h4">
                  Downloads
                </Title>
                {downloads.map((download) => (
                  <Anchor
                    key={download.file}
                    href={download.href}
                    target="_blank"
                    rel="noopener noreferrer"
                    size="sm"
                  >
                    {download.name}
                  </Anchor>
                ))}
              </Stack>
            </Card>
          ) : null}
        </Stack>
      </Grid.Col>
    </Grid>
  );
}
