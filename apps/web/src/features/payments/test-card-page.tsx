import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Group,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { messages } from '@tumble/contracts/messages';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { leaveForUrl } from '../../components/browser-navigation';
import { PageLoader } from '../../components/page-loader';
import { cancelTestSession, payTestSession, saveTestCard, useTestSession } from './api/test-payment';

/** 4242424242424242 as '4242 4242 4242 4242'. */
export function formatCardNumber(value: string): string {
  return value
    .replace(/\D/g, '')
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** The Luhn check every real card number passes (the server checks it too). */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** '1228' as '12/28'. */
export function formatExpiry(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

function companyName(company: unknown): string | null {
  if (typeof company === 'string') return company;
  if (company && typeof company === 'object' && 'name' in company && typeof company.name === 'string') {
    return company.name;
  }
  return null;
}

/**
 * /payments/test?session: the card page of the `test` payment provider, like a provider's test
 * mode. No card data leaves this page except the number, which only chooses the outcome:
 * 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined, a number failing the Luhn check is
 * invalid, and any other valid-looking number is declined. In "save a card" mode (`mode: 'setup'`,
 * autopay) there is no amount and the button saves the card: 4000 0000 0000 0341 saves but every
 * later charge of it is declined, and 4000 0000 0000 0002 is refused.
 */
export function TestCardPage() {
  const [params] = useSearchParams();
  const session = params.get('session') ?? '';
  const details = useTestSession(session);
  const [card, setCard] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const [busy, setBusy] = useState<'pay' | 'cancel' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<{ card?: string; expiry?: string; cvc?: string }>({});
  const saving = details.data?.mode === 'setup';
  useDocumentTitle(saving ? 'Test card' : 'Test payment');

  async function pay(event: FormEvent) {
    event.preventDefault();
    const digits = card.replace(/\D/g, '');
    const problems = {
      card:
        digits.length === 0
          ? 'Enter a card number.'
          : digits.length < 12 || !luhnValid(digits)
            ? 'Your card number is invalid.'
            : undefined,
      expiry: /^(0[1-9]|1[0-2])\/\d{2}$/.test(expiry) ? undefined : 'Enter the expiry as MM/YY.',
      cvc: /^\d{3,4}$/.test(cvc) ? undefined : 'Enter the 3 or 4 digit CVC.',
    };
    setFieldErrors(problems);
    if (problems.card || problems.expiry || problems.cvc) return;
    setBusy('pay');
    setError(null);
    try {
      leaveForUrl(await (saving ? saveTestCard(session, digits) : payTestSession(session, digits)));
    } catch (failure) {
      setError(
        failure instanceof ApiError
          ? (failure.serverMessage ?? messages.checkoutFailed)
          : messages.checkoutFailed,
      );
      setBusy(null);
    }
  }

  async function cancel() {
    setBusy('cancel');
    setError(null);
    try {
      leaveForUrl(await cancelTestSession(session));
    } catch (failure) {
      setError(
        failure instanceof ApiError
          ? (failure.serverMessage ?? messages.checkoutFailed)
          : messages.checkoutFailed,
      );
      setBusy(null);
    }
  }

  const banner = (
    <Alert color="orange.9" variant="filled" role="note" title="TEST MODE — no real money moves" radius="md">
      {saving
        ? 'This is the demo card page. Use 4242 4242 4242 4242 to save a card that pays, 4000 0000 0000 0341 for a card that saves but is declined when charged, or 4000 0000 0000 0002 to see a card refused, with any future expiry and any CVC.'
        : 'This is the demo payment page. Use 4242 4242 4242 4242 to pay or 4000 0000 0000 0002 to see a declined card, with any future expiry and any CVC. Other card numbers are declined.'}
    </Alert>
  );

  let content: ReactNode;
  if (!session) {
    content = (
      <Alert color="red" role="alert">
        This payment link is incomplete.
      </Alert>
    );
  } else if (details.isPending) {
    content = <PageLoader />;
  } else if (details.isError) {
    content = (
      <Alert color="red" role="alert">
        {details.error instanceof ApiError
          ? (details.error.serverMessage ?? 'This payment could not be found.')
          : details.error.message}
      </Alert>
    );
  } else if (details.data.status !== 'open' && details.data.status !== 'failed') {
    // 'failed': the last card was declined; the page still takes another one.
    content = (
      <Stack gap="sm">
        <Alert color="orange" role="status">
          {details.data.status === 'saved'
            ? 'This card is already saved.'
            : details.data.status === 'paid'
              ? 'This payment is already complete.'
              : 'This payment is no longer open.'}
        </Alert>
        {details.data.return_url ? (
          <Button component="a" href={details.data.return_url} variant="default">
            {saving ? 'Back' : 'Back to the booking'}
          </Button>
        ) : null}
      </Stack>
    );
  } else {
    const name = companyName(details.data.company);
    content = (
      <form onSubmit={(event) => void pay(event)} noValidate>
        <Stack gap="md">
          <Group justify="space-between" align="flex-end">
            {saving ? (
              <Text size="sm" c="dimmed" maw={320}>
                {name
                  ? `Save a card for ${name} to charge when your payments fall due. Nothing is charged now.`
                  : 'Save a card to charge when your payments fall due. Nothing is charged now.'}
              </Text>
            ) : (
              <Box>
                <Text size="sm" c="dimmed">
                  {name ? `Pay ${name}` : 'Amount due'}
                </Text>
                <Text fz={32} fw={800} lh={1.1} data-testid="test-amount">
                  {details.data.formatted}
                </Text>
              </Box>
            )}
            <Badge color="yellow" variant="light">
              Test card
            </Badge>
          </Group>
          {error ? (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          ) : null}
          <TextInput
            label="Card number"
            placeholder="4242 4242 4242 4242"
            inputMode="numeric"
            autoComplete="cc-number"
            value={card}
            onChange={(event) => setCard(formatCardNumber(event.currentTarget.value))}
            error={fieldErrors.card}
            size="md"
          />
          <SimpleGrid cols={2} spacing="sm">
            <TextInput
              label="Expiry"
              placeholder="MM/YY"
              inputMode="numeric"
              autoComplete="cc-exp"
              value={expiry}
              onChange={(event) => setExpiry(formatExpiry(event.currentTarget.value))}
              error={fieldErrors.expiry}
              size="md"
            />
            <TextInput
              label="CVC"
              placeholder="123"
              inputMode="numeric"
              autoComplete="cc-csc"
              value={cvc}
              onChange={(event) => setCvc(event.currentTarget.value.replace(/\D/g, '').slice(0, 4))}
              error={fieldErrors.cvc}
              size="md"
            />
          </SimpleGrid>
          <Button type="submit" size="md" loading={busy === 'pay'} disabled={busy !== null}>
            {saving ? 'Save card' : `Pay ${details.data.formatted}`}
          </Button>
          <Button
            variant="subtle"
            color="gray"
            onClick={() => void cancel()}
            loading={busy === 'cancel'}
            disabled={busy !== null}
          >
            Cancel
          </Button>
        </Stack>
      </form>
    );
  }

  return (
    <Stack maw={480} mx="auto" gap="md">
      {banner}
      <Card>
        <Stack gap="md">
          <Title order={1} size="h3">
            {saving ? 'Save a card' : 'Card payment'}
          </Title>
          {content}
        </Stack>
      </Card>
    </Stack>
  );
}
