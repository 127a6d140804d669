import { Alert, Box, Button, Card, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { messages } from '@tumble/contracts/messages';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { leaveForUrl } from '../../components/browser-navigation';
import { PageLoader } from '../../components/page-loader';
import { type SquareCardSetup, saveSquareCard, useSquareCardSetup } from './api/square-card';

/** The parts of Square's Web Payments SDK this page uses (https://developer.squareup.com/reference/sdks/web/payments). */
interface SquareCardField {
  attach(target: string | HTMLElement): Promise<void>;
  tokenize(): Promise<{ status: string; token?: string; errors?: { message: string }[] }>;
  destroy(): Promise<boolean>;
}
interface SquarePayments {
  card(): Promise<SquareCardField>;
}
declare global {
  interface Window {
    Square?: { payments(applicationId: string, locationId: string): SquarePayments };
  }
}

/** Square's SDK is always loaded from Square's CDN (never bundled), sandbox or production. */
export function squareSdkUrl(environment: SquareCardSetup['environment']): string {
  return environment === 'production'
    ? 'https://web.squarecdn.com/v1/square.js'
    : 'https://sandbox.web.squarecdn.com/v1/square.js';
}

function loadSquareSdk(url: string): Promise<NonNullable<Window['Square']>> {
  if (window.Square) return Promise.resolve(window.Square);
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = url;
    script.onload = () =>
      window.Square ? resolve(window.Square) : reject(new Error('Square.js did not load.'));
    script.onerror = () => reject(new Error('Square.js did not load.'));
    document.head.appendChild(script);
  });
}

/**
 * /payments/square-card?session: where a parent saves a card with Square (autopay). Square's Web
 * Payments SDK draws the card field (the number never touches our page) and gives a one-time
 * token, which the server saves on the family's Square customer; then back to the return page.
 */
export function SquareCardPage() {
  const [params] = useSearchParams();
  const session = params.get('session') ?? '';
  const setup = useSquareCardSetup(session);
  const field = useRef<SquareCardField | null>(null);
  const [ready, setReady] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useDocumentTitle('Save a card');

  const data = setup.data;
  const usable = data?.status === 'open' && data.application_id && data.location_id ? data : null;
  useEffect(() => {
    if (!usable?.application_id || !usable.location_id) return;
    let cancelled = false;
    const { application_id: applicationId, location_id: locationId } = usable;
    loadSquareSdk(squareSdkUrl(usable.environment))
      .then((square) => square.payments(applicationId, locationId).card())
      .then(async (card) => {
        if (cancelled) return card.destroy();
        await card.attach('#square-card');
        field.current = card;
        setReady(true);
      })
      .catch(() => setError('The card form could not be loaded. Please try again later.'));
    return () => {
      cancelled = true;
      void field.current?.destroy();
      field.current = null;
    };
  }, [usable]);

  async function save() {
    if (!field.current) return;
    setBusy(true);
    setError(null);
    try {
      const result = await field.current.tokenize();
      if (result.status !== 'OK' || !result.token) {
        setError(result.errors?.[0]?.message ?? 'Check the card details.');
        setBusy(false);
        return;
      }
      leaveForUrl(await saveSquareCard(session, result.token));
    } catch (failure) {
      setError(
        failure instanceof ApiError
          ? (failure.serverMessage ?? messages.checkoutFailed)
          : messages.checkoutFailed,
      );
      setBusy(false);
    }
  }

  let content: ReactNode;
  if (!session) {
    content = (
      <Alert color="red" role="alert">
        This link is incomplete.
      </Alert>
    );
  } else if (setup.isPending) {
    content = <PageLoader />;
  } else if (setup.isError) {
    content = (
      <Alert color="red" role="alert">
        {setup.error instanceof ApiError
          ? (setup.error.serverMessage ?? 'This page could not be found.')
          : setup.error.message}
      </Alert>
    );
  } else if (setup.data.status !== 'open') {
    content = (
      <Stack gap="sm">
        <Alert color="orange" role="status">
          {setup.data.status === 'saved'
            ? 'This card is already saved.'
            : 'This page has expired. Please start again.'}
        </Alert>
        <Button component="a" href={setup.data.return_url} variant="default">
          Back
        </Button>
      </Stack>
    );
  } else if (!usable) {
    content = (
      <Alert color="orange" role="status">
        Saving a card with Square is not set up yet. Please contact {setup.data.company}.
      </Alert>
    );
  } else {
    content = (
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {`Save a card for ${setup.data.company} to charge when your payments fall due. Nothing is charged now.`}
        </Text>
        {error ? (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        ) : null}
        <Box id="square-card" mih={90} />
        <Button size="md" onClick={() => void save()} loading={busy} disabled={!ready || busy}>
          Save card
        </Button>
        <Button component="a" href={setup.data.return_url} variant="subtle" color="gray">
          Cancel
        </Button>
      </Stack>
    );
  }

  return (
    <Stack maw={480} mx="auto" gap="md">
      <Card>
        <Stack gap="md">
          <Title order={1} size="h3">
            Save a card
          </Title>
          {content}
        </Stack>
      </Card>
    </Stack>
  );
}
