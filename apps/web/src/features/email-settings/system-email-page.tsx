import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Card,
  Code,
  Group,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type MailPreview,
  type SystemEmailView,
  type SystemEmailWording,
  systemEmailWording,
} from '@tumble/contracts/email-settings';
import { messages } from '@tumble/contracts/messages';
import { useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { type FieldErrors, fieldErrorsFromZod } from '../../components/form-errors';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import {
  failureText,
  previewWording,
  resetWording,
  saveWording,
  sendWordingTest,
  systemEmailsKey,
  useSystemEmails,
} from './email-settings-api';

const wordingOf = (email: SystemEmailView): SystemEmailWording =>
  email.custom ?? { subject: email.default_subject, body: email.default_body };

function Editor({ email }: { email: SystemEmailView }) {
  const queryClient = useQueryClient();
  const [values, setValues] = useState(() => wordingOf(email));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [preview, setPreview] = useState<MailPreview | null>(null);
  const body = useRef<HTMLTextAreaElement>(null);
  const schema = systemEmailWording(email.placeholders.map((p) => p.name));

  /** The wording if it passes the same check the server makes; the messages under the fields if not. */
  const checked = () => {
    const parsed = schema.safeParse(values);
    setErrors(parsed.success ? {} : fieldErrorsFromZod(parsed.error));
    return parsed.success ? parsed.data : null;
  };
  const onSaved = (list: { emails: SystemEmailView[] }) => queryClient.setQueryData(systemEmailsKey, list);
  const save = useMutation({
    mutationFn: (wording: SystemEmailWording) => saveWording(email.kind, wording),
    onSuccess: (list) => {
      onSaved(list);
      notifications.show({
        color: 'teal',
        title: 'Saved',
        message: `“${email.label}” now uses your wording.`,
      });
    },
  });
  const reset = useMutation({
    mutationFn: () => resetWording(email.kind),
    onSuccess: (list) => {
      onSaved(list);
      setValues({ subject: email.default_subject, body: email.default_body });
      setPreview(null);
      setErrors({});
      notifications.show({
        color: 'teal',
        title: 'Reset',
        message: `“${email.label}” is back to the default.`,
      });
    },
  });
  const previewCard = useRef<HTMLDivElement>(null);
  const showPreview = useMutation({
    mutationFn: (wording: SystemEmailWording) => previewWording(email.kind, wording),
    onSuccess: (shown) => {
      setPreview(shown);
      // On a phone the preview is below the form and the placeholders: bring it into view.
      requestAnimationFrame(() => previewCard.current?.scrollIntoView({ block: 'start' }));
    },
  });
  const test = useMutation({
    mutationFn: (wording: SystemEmailWording) => sendWordingTest(email.kind, wording),
    onSuccess: ({ to }) =>
      notifications.show({
        color: 'teal',
        title: 'Test sent',
        message: `A test has been sent to ${to}. Without a mail server it waits in the Outbox.`,
      }),
  });
  const failure = save.error ?? reset.error ?? showPreview.error ?? test.error;

  /** Puts a placeholder where the cursor is in the text (at the end when the text was not focused). */
  function insert(name: string) {
    const area = body.current;
    const token = `{{${name}}}`;
    const at = area ? area.selectionStart : values.body.length;
    const end = area ? area.selectionEnd : at;
    setValues((v) => ({ ...v, body: v.body.slice(0, at) + token + v.body.slice(end) }));
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(at + token.length, at + token.length);
    });
  }

  const run = (action: (wording: SystemEmailWording) => void) => () => {
    const wording = checked();
    if (wording) action(wording);
  };

  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
      <Stack gap="md">
        <Card>
          <form
            aria-label="Wording"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              run((w) => save.mutate(w))();
            }}
          >
            <Stack gap="md">
              <Group justify="space-between">
                <Title order={2} fz="lg">
                  Wording
                </Title>
                {email.custom ? (
                  <Badge color="teal" variant="light">
                    Your wording
                  </Badge>
                ) : (
                  <Badge color="gray" variant="light">
                    Default
                  </Badge>
                )}
              </Group>
              <TextInput
                label="Subject"
                name="subject"
                withAsterisk
                value={values.subject}
                onChange={(e) => {
                  const { value } = e.currentTarget;
                  setValues((v) => ({ ...v, subject: value }));
                }}
                error={errors.subject}
              />
              <Textarea
                ref={body}
                label="Text"
                name="body"
                withAsterisk
                description="Leave a blank line between paragraphs. A paragraph that is only a link placeholder becomes a link."
                autosize
                minRows={8}
                value={values.body}
                onChange={(e) => {
                  const { value } = e.currentTarget;
                  setValues((v) => ({ ...v, body: value }));
                }}
                error={errors.body}
              />
              {failure ? (
                <Alert color="red" role="alert">
                  {failureText(failure)}
                </Alert>
              ) : null}
              <Group gap="xs">
                <Button type="submit" loading={save.isPending}>
                  Save
                </Button>
                <Button
                  variant="light"
                  onClick={run((w) => showPreview.mutate(w))}
                  loading={showPreview.isPending}
                >
                  Preview
                </Button>
                <Button variant="light" onClick={run((w) => test.mutate(w))} loading={test.isPending}>
                  Send me a test
                </Button>
                {email.custom ? (
                  <Button
                    variant="subtle"
                    color="red"
                    onClick={() => reset.mutate()}
                    loading={reset.isPending}
                  >
                    Reset to default
                  </Button>
                ) : null}
              </Group>
            </Stack>
          </form>
        </Card>
        <Card>
          <Stack gap="xs">
            <Title order={2} fz="lg">
              Placeholders
            </Title>
            <Text size="sm" c="dimmed">
              Filled in for each family when the email is sent. Select one to put it in the text.
            </Text>
            <Table verticalSpacing={6} aria-label="Placeholders">
              <Table.Tbody>
                {email.placeholders.map((p) => (
                  <Table.Tr key={p.name}>
                    <Table.Td style={{ whiteSpace: 'nowrap', width: '1%' }}>
                      <UnstyledButton onClick={() => insert(p.name)} aria-label={`Insert {{${p.name}}}`}>
                        <Code>{`{{${p.name}}}`}</Code>
                      </UnstyledButton>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{p.description}</Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Stack>
        </Card>
      </Stack>
      <Card ref={previewCard}>
        <Stack gap="sm">
          <Title order={2} fz="lg">
            Preview
          </Title>
          {preview ? (
            <>
              <Text size="sm">
                <Text span fw={600}>
                  Subject:{' '}
                </Text>
                <span data-testid="preview-subject">{preview.subject}</span>
              </Text>
              <Box
                component="iframe"
                title="Email preview"
                // No scripts, no forms, no navigation: the mail's HTML is only shown.
                sandbox=""
                srcDoc={`<!doctype html><meta charset="utf-8"><body style="font-family:system-ui,sans-serif;font-size:14px;line-height:1.5;margin:12px;overflow-wrap:anywhere">${preview.html}</body>`}
                style={{
                  width: '100%',
                  minHeight: 360,
                  border: '1px solid var(--mantine-color-gray-3)',
                  borderRadius: 'var(--mantine-radius-sm)',
                  background: 'white',
                }}
              />
              <Text size="xs" c="dimmed">
                With sample details, your sender settings, footer and logo, as a family will see it.
              </Text>
            </>
          ) : (
            <Text size="sm" c="dimmed">
              Select Preview to see the email with sample details, as a family will get it.
            </Text>
          )}
        </Stack>
      </Card>
    </SimpleGrid>
  );
}

/** /admin/system-emails/:kind: one system email's wording, placeholders, preview and test. */
export function SystemEmailPage() {
  const { kind } = useParams();
  const emails = useSystemEmails();
  const email = emails.data?.emails.find((e) => e.kind === kind);
  return (
    <Stack gap="md" maw={1200} w="100%" mx="auto">
      <Anchor component={Link} to="/admin/system-emails" size="sm">
        ← All system emails
      </Anchor>
      {emails.isError ? (
        <Alert color="red" role="alert">
          {messages.formLoadFailed}
        </Alert>
      ) : emails.data && !email ? (
        <Alert color="red" role="alert">
          There is no such email.
        </Alert>
      ) : email ? (
        <>
          <PageTitle title={email.label} description={email.sent} />
          <Editor key={email.kind} email={email} />
        </>
      ) : (
        <PageLoader />
      )}
    </Stack>
  );
}
