import { Alert, Anchor, Button, CopyButton, Group, Stack, Text } from '@mantine/core';
import type { CreatedFeedResponse, FeedState } from '@tumble/contracts/calendar-feeds';

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-AU', { dateStyle: 'medium', timeStyle: 'short' });

/** A live feed in plain words: since when, and whether a calendar has fetched it yet. */
export function feedStatusText(feed: FeedState | null): string {
  if (!feed) return 'No feed yet.';
  return `Made ${when(feed.created_at)}. ${
    feed.last_fetched_at
      ? `Last fetched by a calendar ${when(feed.last_fetched_at)}.`
      : 'Not fetched by a calendar yet.'
  }`;
}

/**
 * A feed URL just made: copy it, or open Google Calendar's subscribe page. The server keeps only a
 * hash of it, so it is shown this once; making a new one later revokes it.
 */
export function FeedLink({ made, name }: { made: CreatedFeedResponse; name: string }) {
  return (
    <Alert color="teal" title={`${name}: your new feed URL`}>
      <Stack gap="xs">
        <Text size="sm">
          Copy it now: for your security it is shown only once. Anyone with this URL can see the calendar.
        </Text>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }} data-testid="feed-url">
            {made.url}
          </Text>
          <CopyButton value={made.url}>
            {({ copied, copy }) => (
              <Button size="compact-sm" variant="light" style={{ flexShrink: 0 }} onClick={copy}>
                {copied ? 'Copied' : 'Copy URL'}
              </Button>
            )}
          </CopyButton>
        </Group>
        <Anchor href={made.google_url} target="_blank" rel="noreferrer" size="sm">
          Subscribe in Google Calendar
        </Anchor>
      </Stack>
    </Alert>
  );
}
