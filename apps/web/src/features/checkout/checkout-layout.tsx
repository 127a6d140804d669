import { Alert, Anchor, Box, Button, Card, Grid, Group, List, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { StripeCheckoutModal } from '../../components/stripe-checkout-modal';
import { TermsCard } from '../../components/terms-card';
import { DiscountCodes, type DiscountCodesProps } from './discount-codes';
import type { CardPaymentStep } from './use-card-payment';

type TermsCardProps = Parameters<typeof TermsCard>[0];

interface CheckoutLayoutProps {
  header: ReactNode;
  title: string;
  /** Back to the booking page to change what was chosen. */
  change: { to: string; label: string };
  step: CardPaymentStep;
  /** The first card: who the purchase is for. */
  childrenTitle: string;
  childrenForm: ReactNode;
  /** The Discounts card; null when nothing is paid. */
  discounts: DiscountCodesProps | null;
  terms: TermsCardProps;
  summaryTitle: string;
  /** What is bought and its price, above the confirm button. */
  summary: ReactNode;
  /** Why there is no price (the charges summary failed), shown under it. */
  priceError: string | null;
  confirmLabel: string;
  confirmDisabled: boolean;
  /** The payment succeeded in the card form. */
  onComplete: () => void;
}

/** Every checkout page: the form on the left, the sticky summary and confirm button on the right. */
export function CheckoutLayout(props: CheckoutLayoutProps) {
  const { step } = props;
  return (
    <Box>
      {props.header}
      <Group justify="space-between" align="flex-end" mb="md" gap="xs">
        <Title order={1} fz={{ base: 24, sm: 30 }}>
          {props.title}
        </Title>
        <Anchor component={Link} to={props.change.to} size="sm">
          {props.change.label}
        </Anchor>
      </Group>

      <CheckoutErrors errors={step.errors} />
      {step.notice ? (
        <Alert color="orange" role="status" mb="md" withCloseButton onClose={step.dismissNotice}>
          {step.notice}
        </Alert>
      ) : null}

      {step.paysElsewhere ? (
        // Embedded in a provider's website: the payment page opened in a new tab (or was blocked).
        <Alert color="blue" role="status" mb="md">
          Finish paying in the new tab.{' '}
          <Anchor href={step.paysElsewhere} target="_blank" rel="noopener">
            Open the payment page
          </Anchor>
        </Alert>
      ) : null}

      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="lg">
            <Card>
              <Stack gap="md">
                <Title order={2} size="h4">
                  {props.childrenTitle}
                </Title>
                {props.childrenForm}
              </Stack>
            </Card>
            {props.discounts ? <DiscountCodes {...props.discounts} /> : null}
            <TermsCard {...props.terms} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Card pos={{ md: 'sticky' }} top={{ md: 16 }} component="section" aria-label={props.summaryTitle}>
            <Stack gap="md">
              <Title order={2} size="h4">
                {props.summaryTitle}
              </Title>
              {props.summary}
              {props.priceError ? (
                <Text size="sm" c="red" role="alert">
                  {props.priceError}
                </Text>
              ) : null}
              <Button
                size="md"
                fullWidth
                onClick={step.confirm}
                loading={step.submitting}
                disabled={props.confirmDisabled}
              >
                {props.confirmLabel}
              </Button>
            </Stack>
          </Card>
        </Grid.Col>
      </Grid>

      <StripeCheckoutModal
        payment={step.payment}
        onClose={step.closeCardPayment}
        onComplete={props.onComplete}
      />
    </Box>
  );
}

/** The red list above the form: one message alone, several as a list. */
function CheckoutErrors({ errors }: { errors: string[] }) {
  if (errors.length === 0) return null;
  return (
    <Alert color="red" role="alert" mb="md">
      {errors.length === 1 ? (
        errors[0]
      ) : (
        <List size="sm" spacing={2}>
          {errors.map((message) => (
            <List.Item key={message}>{message}</List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
