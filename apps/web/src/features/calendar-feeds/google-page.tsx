import { Alert, Button, Card, Divider, Group, Stack, Text, Title } from '@mantine/core';
import type { CreatedFeedResponse, CreateFeedRequest, FeedState } from '@tumble/contracts/calendar-feeds';
import { messages } from '@tumble/contracts/messages';
import { useState } from 'react';
import { ApiError } from '../../api/client';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { useCreateFeed, useStaffFeeds, useStopFeed } from './calendar-feeds-api';
import { FeedLink, feedStatusText } from './feed-link';

function failureText(error: unknown): string {
  if (error instanceof ApiError && error.wrongRole)
    return 'Only an administrator can make or stop feed URLs.';
  return error instanceof ApiError
    ? (error.serverMessage ?? messages.communicationError)
    : messages.communicationError;
}

/** One feed's row: who it is for, its state, make or regenerate, stop; the new URL right under it. */
function FeedRow({
  name,
  feed,
  request,
  made,
  onMade,
}: {
  name: string;
  feed: FeedState | null;
  request: CreateFeedRequest;
  made: CreatedFeedResponse | null;
  onMade: (made: CreatedFeedResponse) => void;
}) {
  const create = useCreateFeed();
  const stop = useStopFeed();
  const error = create.error ?? stop.error;
  return (
    <Stack gap="xs">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={2} style={{ flex: '1 1 16rem' }}>
          <Text fw={600}>{name}</Text>
          <Text size="sm" c="dimmed">
            {feedStatusText(feed)}
          </Text>
        </Stack>
        <Group gap="xs">
          <Button
            size="xs"
            variant={feed ? 'default' : 'filled'}
            loading={create.isPending}
            onClick={() => create.mutate(request, { onSuccess: onMade })}
            aria-label={`${feed ? 'Regenerate URL' : 'Create feed URL'}: ${name}`}
          >
            {feed ? 'Regenerate URL' : 'Create feed URL'}
          </Button>
          {feed ? (
            <Button
              size="xs"
              variant="subtle"
              color="red"
              loading={stop.isPending}
              onClick={() => stop.mutate(feed.id)}
              aria-label={`Stop feed: ${name}`}
            >
              Stop feed
            </Button>
          ) : null}
        </Group>
      </Group>
      {error ? <Alert color="red">{failureText(error)}</Alert> : null}
      {made && feed?.id === made.feed.id ? <FeedLink made={made} name={name} /> : null}
    </Stack>
  );
}

/**
 * /admin/integrations/google (SPEC integrations/google): calendar feeds with secret URLs for the
 * company's timetable and each coach's sessions. Google Calendar subscribes to a URL and fetches
 * it every few hours, so moved and cancelled sessions update there by themselves.
 */
export function GooglePage() {
  const feeds = useStaffFeeds();
  const [made, setMade] = useState<CreatedFeedResponse | null>(null);
  if (!feeds.data)
    return feeds.isError ? <Alert color="red">{failureText(feeds.error)}</Alert> : <PageLoader />;
  const { company, coaches } = feeds.data;
  return (
    <Stack gap="md" maw={860}>
      <PageTitle
        title="Google Calendar"
        description="Calendar feeds with secret URLs: subscribe in Google Calendar (or any calendar app) and moved or cancelled sessions update there by themselves. Regenerating a URL stops the old one."
      />
      <Card withBorder padding="md">
        <Stack gap="sm">
          <Title order={3} size="h4">
            Company feed
          </Title>
          <Text size="sm" c="dimmed">
            Every class session of the current and next terms, event days and birthday parties.
          </Text>
          <FeedRow
            name="Company timetable"
            feed={company}
            request={{ kind: 'company' }}
            made={made}
            onMade={setMade}
          />
        </Stack>
      </Card>
      <Card withBorder padding="md">
        <Stack gap="sm">
          <Title order={3} size="h4">
            Coaches
          </Title>
          <Text size="sm" c="dimmed">
            Each coach&apos;s own sessions, for the coach&apos;s phone.
          </Text>
          {coaches.length === 0 ? <Text c="dimmed">No coaches yet.</Text> : null}
          {coaches.map((coach, i) => (
            <Stack key={coach.coach_id} gap="sm">
              {i > 0 ? <Divider /> : null}
              <FeedRow
                name={coach.name}
                feed={coach.feed}
                request={{ kind: 'coach', coach_id: coach.coach_id }}
                made={made}
                onMade={setMade}
              />
            </Stack>
          ))}
        </Stack>
      </Card>
      <Text size="sm" c="dimmed">
        Families find their own feed under My Calendar in their account.
      </Text>
    </Stack>
  );
}
