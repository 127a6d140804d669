import { Alert, Anchor, Button, Card, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import {
  AUTOPAY_LABEL,
  describeCard,
  SAVED_CARD_PATH,
  type SavedCardResponse,
} from '@tumble/contracts/autopay';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { StripeCheckoutModal } from '../../components/stripe-checkout-modal';
import { useCardPayment } from '../checkout/use-card-payment';
import {
  cardSetupReturned,
  removeCard,
  savedCardKey,
  setAutopay,
  startCardSetup,
  useSavedCard,
} from './saved-card-api';

type Outcome = { color: 'teal' | 'orange' | 'red'; text: string } | null;

/**
 * Back from the provider's page (`?setup=done`): asks the server to save the card the setup made
 * (the provider's notice may not have arrived yet) and says whether it was saved.
 */
function useSetupReturn(setOutcome: (outcome: Outcome) => void) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const returned = params.get('setup') === 'done';
  const asked = useRef(false);
  useEffect(() => {
    if (!returned || asked.current) return;
    asked.current = true;
    cardSetupReturned()
      .then(({ saved, ...card }) => {
        queryClient.setQueryData(savedCardKey, card);
        setOutcome(
          saved
            ? { color: 'teal', text: 'Your card has been saved.' }
            : { color: 'orange', text: 'Your card was not saved. Nothing was charged; you can try again.' },
        );
      })
      .catch(() =>
        setOutcome({ color: 'red', text: 'We could not check your card. Please reload the page.' }),
      )
      .finally(() => navigate(SAVED_CARD_PATH, { replace: true }));
  }, [returned, navigate, queryClient, setOutcome]);
  return returned;
}

function CardDetails({ data, setOutcome }: { data: SavedCardResponse; setOutcome: (o: Outcome) => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [busy, setBusy] = useState<'autopay' | 'remove' | null>(null);
  // The embedded card form reports success here; the redirect pages come back with ?setup=done.
  const finish = useCallback(() => navigate(`${SAVED_CARD_PATH}?setup=done`), [navigate]);
  const step = useCardPayment({
    problems: [],
    finish,
    cancelledNotice: 'Your card was not saved. Nothing was charged.',
    send: () => startCardSetup(),
  });

  async function change(action: 'autopay' | 'remove', call: () => Promise<SavedCardResponse>, done: string) {
    setBusy(action);
    setOutcome(null);
    try {
      queryClient.setQueryData(savedCardKey, await call());
      setOutcome({ color: 'teal', text: done });
    } catch (error) {
      setOutcome({
        color: 'red',
        text: (error instanceof ApiError && error.serverMessage) || 'That did not work. Please try again.',
      });
    } finally {
      setBusy(null);
    }
  }

  return (
    <Card component="section" aria-label="Your card">
      <Stack gap="md">
        {step.errors.length > 0 ? (
          <Alert color="red" role="alert">
            {step.errors.join(' ')}
          </Alert>
        ) : null}
        {step.notice ? (
          <Alert color="orange" role="status" withCloseButton onClose={step.dismissNotice}>
            {step.notice}
          </Alert>
        ) : null}
        <Title order={2} size="h4">
          Your card
        </Title>
        {data.card ? <Text fw={600}>{describeCard(data.card)}</Text> : <Text c="dimmed">No card saved.</Text>}
        <Group gap="sm">
          <Button onClick={step.confirm} loading={step.submitting} variant={data.card ? 'light' : 'filled'}>
            {data.card ? 'Replace card' : 'Save a card'}
          </Button>
          {data.card ? (
            <Button
              color="red"
              variant="subtle"
              loading={busy === 'remove'}
              onClick={() => void change('remove', removeCard, 'Your card has been removed. Autopay is off.')}
            >
              Remove card
            </Button>
          ) : null}
        </Group>
        {step.paysElsewhere ? (
          <Alert color="blue" role="status">
            Finish saving your card in the new tab.{' '}
            <Anchor href={step.paysElsewhere} target="_blank" rel="noopener">
              Open the card page
            </Anchor>
          </Alert>
        ) : null}
        {data.card ? (
          <Stack gap={4}>
            <Switch
              size="md"
              checked={data.autopay}
              disabled={busy !== null}
              label={AUTOPAY_LABEL}
              onChange={(event) => {
                const on = event.currentTarget.checked;
                void change(
                  'autopay',
                  () => setAutopay(on),
                  on ? 'Autopay is on.' : 'Autopay is off. Your card stays saved.',
                );
              }}
            />
            <Text size="sm" c="dimmed">
              We charge this card on each due date and email you a receipt. If a charge does not go through,
              we try again 3, 5 and 8 days later and email you each time. Removing the card turns autopay off.
            </Text>
          </Stack>
        ) : null}
      </Stack>
      <StripeCheckoutModal payment={step.payment} onClose={step.closeCardPayment} onComplete={finish} />
    </Card>
  );
}

/** The parent's saved card and autopay switch (/admin/students/card). */
export function SavedCardPage() {
  const [outcome, setOutcome] = useState<Outcome>(null);
  const checking = useSetupReturn(setOutcome);
  const query = useSavedCard();
  return (
    <Stack gap="md" maw={640}>
      <PageTitle
        title="Saved card"
        description="Save a card to pay your invoices and instalments automatically."
      />
      {outcome ? (
        <Alert color={outcome.color} role="status" withCloseButton onClose={() => setOutcome(null)}>
          {outcome.text}
        </Alert>
      ) : null}
      {query.isError ? (
        <Alert color="red" role="alert">
          We could not load your card. Please reload the page.
        </Alert>
      ) : checking || !query.data ? (
        <PageLoader />
      ) : (
        <CardDetails data={query.data} setOutcome={setOutcome} />
      )}
    </Stack>
  );
}
