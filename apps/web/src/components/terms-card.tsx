import { Card, Checkbox, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { messages } from '@tumble/contracts/messages';
import { ServerHtml } from './server-html';

/** The payment terms of a checkout (server-sanitized HTML) and the box that accepts them. */
export function TermsCard(props: {
  loading: boolean;
  html: string | undefined;
  accepted: boolean;
  onAcceptedChange: (accepted: boolean) => void;
}) {
  return (
    <Card>
      <Stack gap="sm">
        <Title order={2} size="h4">
          Terms and Conditions
        </Title>
        <ScrollArea.Autosize
          mah={220}
          type="auto"
          offsetScrollbars
          style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 8 }}
          p="sm"
          data-testid="payment-terms"
          // A box that scrolls is reached with the keyboard too (Tab, then the arrow keys).
          viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Terms and Conditions' }}
        >
          {props.loading ? (
            <Text size="sm" c="dimmed">
              Loading terms…
            </Text>
          ) : props.html !== undefined ? (
            <ServerHtml html={props.html} fz="sm" />
          ) : (
            <Text size="sm" c="red">
              {messages.formLoadFailed}
            </Text>
          )}
        </ScrollArea.Autosize>
        <Checkbox
          label="I have read and accept the Terms and Conditions"
          checked={props.accepted}
          onChange={(e) => props.onAcceptedChange(e.currentTarget.checked)}
        />
      </Stack>
    </Card>
  );
}
