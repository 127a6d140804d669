import { Alert, Button, Card, Stack, Text } from '@mantine/core';
import type { CreatedFeedResponse } from '@tumble/contracts/calendar-feeds';
import { messages } from '@tumble/contracts/messages';
import { useState } from 'react';
import { ApiError } from '../../api/client';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { useCreateFamilyFeed, useFamilyFeed } from './calendar-feeds-api';
import { FeedLink, feedStatusText } from './feed-link';

/**
 * /admin/students/calendar: the family's own calendar feed (their children's classes, booked event
 * days and parties), to subscribe to in Google Calendar or any calendar app.
 */
export function FamilyCalendarPage() {
  const feed = useFamilyFeed();
  const create = useCreateFamilyFeed();
  const [made, setMade] = useState<CreatedFeedResponse | null>(null);
  if (!feed.data) return <PageLoader />;
  const current = feed.data.feed;
  return (
    <Stack gap="md" maw={760}>
      <PageTitle
        title="My Calendar"
        description="Your children's classes, event days and parties in your own calendar. Moved or cancelled classes update there by themselves."
      />
      <Card withBorder padding="md">
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {feedStatusText(current)}
          </Text>
          {current ? (
            <Text size="sm">
              Lost the URL, or shared it by mistake? Make a new one: the old URL stops working.
            </Text>
          ) : null}
          <div>
            <Button
              loading={create.isPending}
              onClick={() => create.mutate(undefined, { onSuccess: setMade })}
            >
              {current ? 'Make a new calendar URL' : 'Get my calendar URL'}
            </Button>
          </div>
          {create.isError ? (
            <Alert color="red">
              {create.error instanceof ApiError
                ? (create.error.serverMessage ?? messages.communicationError)
                : messages.communicationError}
            </Alert>
          ) : null}
          {made ? <FeedLink made={made} name="My Calendar" /> : null}
        </Stack>
      </Card>
    </Stack>
  );
}
