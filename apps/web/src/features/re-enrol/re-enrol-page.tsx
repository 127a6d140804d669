import { Alert, Badge, Button, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { messages } from '@tumble/contracts/messages';
import { type MyReEnrolment, myReEnrolment } from '@tumble/contracts/rollover';
import { useState } from 'react';
import { ApiError, api } from '../../api/client';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { formatDayWithWeekday } from '../students/student-format';

const DAYS = ['', 'Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays', 'Fridays', 'Saturdays', 'Sundays'];
const KEY = ['students', 're-enrol'];

type Hold = MyReEnrolment['holds'][number];

function HoldCard({ hold, onReleased }: { hold: Hold; onReleased: (term: string) => void }) {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const release = useMutation({
    mutationFn: () =>
      api.post('/api/v1/students/re-enrol/release', { token: hold.token }, { schema: myReEnrolment }),
    onSuccess: (data) => {
      onReleased(hold.term);
      queryClient.setQueryData(KEY, data);
    },
  });
  return (
    <Card component="article" aria-label={`Places in ${hold.term}`} padding="md">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Stack gap={2}>
            <Title order={2} fz="lg">
              {hold.term}
            </Title>
            <Text size="sm">
              Held for you until <strong>{hold.deadline_display}</strong>
            </Text>
          </Stack>
          <Badge color="blue" variant="light">
            Held
          </Badge>
        </Group>
        <List size="sm" spacing={6} listStyleType="none">
          {hold.places.map((place) => (
            <List.Item key={place.enrolment_id}>
              <Text size="sm" fw={600} span>
                {place.child}
              </Text>
              <Text size="sm" span>
                {' '}
                · {place.class_name} · {DAYS[place.weekday]} {place.start_time}
                {place.starts_on ? ` · from ${formatDayWithWeekday(place.starts_on)}` : ''}
              </Text>
            </List.Item>
          ))}
        </List>
        {release.isError ? (
          <Alert color="red" role="alert">
            {release.error instanceof ApiError
              ? (release.error.serverMessage ?? messages.communicationError)
              : messages.communicationError}
          </Alert>
        ) : null}
        {asking ? (
          <Alert color="orange" title="Are you sure to release these places?">
            <Stack gap="xs">
              <Text size="sm">Another family on the waitlist will be offered them.</Text>
              <Group gap="xs">
                <Button color="red" loading={release.isPending} onClick={() => release.mutate()}>
                  Release
                </Button>
                <Button variant="default" onClick={() => setAsking(false)}>
                  Keep my places
                </Button>
              </Group>
            </Stack>
          </Alert>
        ) : (
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => setAsking(true)}>
              Release
            </Button>
            <Button component="a" href={hold.confirm_url}>
              Confirm and pay
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

/**
 * /admin/students/re-enroll (SPEC students/re-enroll): the places held for the family in the next
 * term's priority window; confirm (the accept page: pay through the one checkout) or release.
 */
export function ReEnrolPage() {
  const holds = useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) => api.get('/api/v1/students/re-enrol', { schema: myReEnrolment, signal }),
  });
  const [released, setReleased] = useState<string | null>(null);
  return (
    <Stack gap="md" maw={900} w="100%" mx="auto">
      <PageTitle
        title="Re-enrolment"
        description="Places kept for your family in next term's classes. Confirm them before the deadline."
      />
      {released ? (
        <Alert color="teal" role="status">
          Your places in {released} are released. Thank you for letting us know.
        </Alert>
      ) : null}
      {holds.isError ? (
        <Alert color="red" role="alert">
          {messages.formLoadFailed}
        </Alert>
      ) : holds.isPending ? (
        <PageLoader />
      ) : holds.data.holds.length === 0 ? (
        <Text c="dimmed" ta="center" py="xl">
          No places are held for you at the moment.
        </Text>
      ) : (
        holds.data.holds.map((hold) => <HoldCard key={hold.token} hold={hold} onReleased={setReleased} />)
      )}
    </Stack>
  );
}
