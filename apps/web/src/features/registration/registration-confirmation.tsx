import { Alert, Anchor, Button, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { Link, useSearchParams } from 'react-router';
import { BookingHeader } from '../../components/booking-header';
import { PageLoader } from '../../components/page-loader';
import { formatDayLong } from '../booking/booking-format';
import { rememberedPurchase, useEnrolmentPurchase, useRegistrationForm } from './registration-api';

const KIND_LABEL = { enrolled: 'Enrolled', trial: 'Trial', makeup: 'Makeup', casual: 'Casual' } as const;

/** Back from paying: what was bought, the sessions, and the waiver to sign when the form has one. */
export function RegistrationConfirmation({ f, authhash }: { f: string; authhash: string }) {
  useDocumentTitle('Enrolment confirmed');
  const [params] = useSearchParams();
  // The return address names the purchase; this tab remembers it too (a free enrolment).
  const reference = params.get('purchase') || rememberedPurchase();
  const form = useRegistrationForm(f, authhash);
  const purchase = useEnrolmentPurchase(reference, authhash);
  if (reference && purchase.isPending) return <PageLoader />;
  const data = purchase.data;
  const again = `/registration/?${new URLSearchParams({ f, authhash })}`;
  return (
    <Stack maw={720} mx="auto">
      <BookingHeader company={form.data?.company} loading={form.isPending} />
      <Card>
        <Stack gap="md">
          <Title order={1} fz={{ base: 24, sm: 30 }}>
            {data?.status === 'pending' ? 'Payment received' : 'Enrolment confirmed!'}
          </Title>
          {data ? (
            <>
              <Text>
                Your enrolment <b>{data.code}</b> ({data.formatted_total}) is{' '}
                {data.status === 'confirmed' ? 'confirmed' : 'being confirmed'}. We have emailed you the
                sessions with a calendar file.
              </Text>
              <Stack gap="sm" data-testid="confirmation-places">
                {data.places.map((place) => (
                  <Card key={`${place.child}-${place.class_name}-${place.kind}`} withBorder padding="sm">
                    <Text fw={700}>
                      {place.child}: {place.class_name}
                    </Text>
                    <Text size="sm" c="dimmed">
                      {KIND_LABEL[place.kind]}
                      {place.venue ? ` · ${place.venue}` : ''}
                    </Text>
                    <List size="sm" spacing={2} mt={4}>
                      {place.sessions.map((s) => (
                        <List.Item key={s.date}>
                          {formatDayLong(s.date)} {s.start_time}–{s.end_time}
                        </List.Item>
                      ))}
                    </List>
                  </Card>
                ))}
              </Stack>
              {data.waiver_link ? (
                <Alert color="blue" title="One more step">
                  Please sign the waiver for each child before the first session.{' '}
                  <Anchor component={Link} to={data.waiver_link}>
                    Sign the waiver
                  </Anchor>
                </Alert>
              ) : null}
            </>
          ) : (
            <Text>Thank you. Your enrolment is in your account with its sessions.</Text>
          )}
          <Group>
            <Button component={Link} to="/admin/students/registrations">
              My enrolments
            </Button>
            <Button component={Link} to={again} variant="light">
              Enrol another child
            </Button>
          </Group>
        </Stack>
      </Card>
    </Stack>
  );
}
