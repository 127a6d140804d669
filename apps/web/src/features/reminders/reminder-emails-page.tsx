import {
  Alert,
  Badge,
  Button,
  Card,
  Code,
  Group,
  NumberInput,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type ReminderRule, type SentReminder, saveReminderRuleRequest } from '@tumble/contracts/reminders';
import { useState } from 'react';
import { FormAlerts } from '../../components/form-alerts';
import { useNarrowScreen } from '../../components/narrow-screen';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { useFormPost } from '../../components/use-form-post';
import { reminderKeys, saveReminderRule, useReminderRules } from './reminders-api';

/** "Hours before the session"-style label of a rule's N. */
function amountLabel(rule: ReminderRule): string {
  const unit = rule.unit === 'hours' ? 'Hours' : 'Days';
  return `${unit} ${rule.direction}`;
}

/** One rule: on/off, its N, its wording with the placeholders it may use; Save. */
function RuleCard({ rule }: { rule: ReminderRule }) {
  const client = useQueryClient();
  const [enabled, setEnabled] = useState(rule.enabled);
  const [amount, setAmount] = useState<string | number>(rule.amount);
  const [subject, setSubject] = useState(rule.subject);
  const [body, setBody] = useState(rule.body);
  const [editing, setEditing] = useState(false);
  const form = useFormPost(saveReminderRuleRequest, saveReminderRule, {
    onAccepted: () => void client.invalidateQueries({ queryKey: reminderKeys.all }),
  });
  // The wording stays open while it has an error to fix.
  const wordingOpen = editing || Boolean(form.fieldErrors.subject ?? form.fieldErrors.body);
  return (
    <Card withBorder padding="md" component="section" aria-label={rule.title}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          form.submit({ kind: rule.kind, enabled, amount, subject, body });
        }}
      >
        <Stack gap="sm">
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
            <Stack gap={2} style={{ minWidth: 0 }}>
              <Group gap="xs">
                <Title order={2} fz="lg">
                  {rule.title}
                </Title>
                <Badge color={rule.enabled ? 'green' : 'gray'} variant="light">
                  {rule.enabled ? 'On' : 'Off'}
                </Badge>
              </Group>
              <Text size="sm" c="dimmed">
                {rule.sends}
              </Text>
            </Stack>
            <Switch
              checked={enabled}
              onChange={(event) => setEnabled(event.currentTarget.checked)}
              aria-label={`${rule.title} on`}
            />
          </Group>
          <FormAlerts failure={form.failure} summary={form.summary} />
          {form.accepted?.info ? (
            <Alert color="green" role="status">
              {form.accepted.info.message}
            </Alert>
          ) : null}
          <NumberInput
            label={amountLabel(rule)}
            value={amount}
            onChange={setAmount}
            min={1}
            max={rule.max_amount}
            allowDecimal={false}
            maw={200}
            error={form.fieldErrors.amount}
          />
          {wordingOpen ? (
            <Stack gap="sm">
              <TextInput
                label="Subject"
                value={subject}
                onChange={(event) => setSubject(event.currentTarget.value)}
                error={form.fieldErrors.subject}
              />
              <Textarea
                label="Message"
                description="Paragraphs are separated by a blank line."
                value={body}
                onChange={(event) => setBody(event.currentTarget.value)}
                autosize
                minRows={4}
                error={form.fieldErrors.body}
              />
              <Group gap={6} aria-label="Placeholders">
                <Text size="xs" c="dimmed">
                  Placeholders:
                </Text>
                {rule.placeholders.map((p) => (
                  <Tooltip key={p.name} label={p.meaning} withArrow>
                    <Code>{`{{${p.name}}}`}</Code>
                  </Tooltip>
                ))}
              </Group>
              <Group>
                <Button
                  variant="default"
                  size="xs"
                  onClick={() => {
                    setSubject(rule.default_subject);
                    setBody(rule.default_body);
                  }}
                >
                  Use the default wording
                </Button>
              </Group>
            </Stack>
          ) : (
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              Subject: {subject}
            </Text>
          )}
          <Group justify="space-between">
            <Button
              variant="subtle"
              size="xs"
              aria-expanded={wordingOpen}
              onClick={() => setEditing(!wordingOpen)}
            >
              {wordingOpen ? 'Hide the wording' : 'Edit the wording'}
            </Button>
            <Button type="submit" loading={form.pending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

function SentList({ sent }: { sent: SentReminder[] }) {
  const narrow = useNarrowScreen();
  if (sent.length === 0) return <Text c="dimmed">No reminder has been sent yet.</Text>;
  const when = (at: string) =>
    new Date(at).toLocaleString('en-AU', { dateStyle: 'medium', timeStyle: 'short' });
  if (narrow)
    return (
      <Stack gap="xs">
        {sent.map((s) => (
          <Card key={s.id} withBorder padding="sm">
            <Text fw={700} size="sm">
              {s.title}
            </Text>
            <Text size="sm">{s.occasion}</Text>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              To {s.to}
            </Text>
            <Text size="xs" c="dimmed">
              {when(s.sent_at)}
            </Text>
          </Card>
        ))}
      </Stack>
    );
  return (
    <Table striped withTableBorder aria-label="Last reminders sent">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Sent</Table.Th>
          <Table.Th>Reminder</Table.Th>
          <Table.Th>About</Table.Th>
          <Table.Th>To</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {sent.map((s) => (
          <Table.Tr key={s.id}>
            <Table.Td>{when(s.sent_at)}</Table.Td>
            <Table.Td>{s.title}</Table.Td>
            <Table.Td>{s.occasion}</Table.Td>
            <Table.Td>{s.to}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** /admin/reminder-emails: the reminder rules a company switches on and edits (SPEC reminder-emails). */
export function ReminderEmailsPage() {
  const rules = useReminderRules();
  if (!rules.data) return <PageLoader />;
  return (
    <Stack gap="md" maw={820}>
      <PageTitle
        title="Reminder emails"
        description="Each reminder goes once to each person for each occasion. Switching a reminder on never sends what was due before."
      />
      {rules.data.rules.map((rule) => (
        <RuleCard key={rule.kind} rule={rule} />
      ))}
      <Title order={2} fz="lg" mt="md">
        Last reminders sent
      </Title>
      <SentList sent={rules.data.sent} />
    </Stack>
  );
}
