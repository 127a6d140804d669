import {
  Alert,
  Anchor,
  Button,
  Card,
  Center,
  FileButton,
  Group,
  Image,
  Radio,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type EmailSettingsUpdate,
  type EmailSettingsView,
  emailSettingsUpdate,
  emailSettingsView,
} from '@tumble/contracts/email-settings';
import { messages } from '@tumble/contracts/messages';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { type FieldErrors, fieldErrorsFromZod } from '../../components/form-errors';
import { UploadIcon } from '../../components/icons';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { emailSettingsKey, failureText, sendSettingsTest, useEmailSettings } from './email-settings-api';

const valuesOf = (s: EmailSettingsView): EmailSettingsUpdate => ({
  from_name: s.from_name,
  reply_to: s.reply_to,
  footer: s.footer,
  logo: s.logo,
});

function LogoPreview({ src }: { src: string | null }) {
  return src ? (
    <Image src={src} alt="Logo in emails" w={96} h={64} fit="contain" radius="sm" />
  ) : (
    <Center
      w={96}
      h={64}
      style={{ border: '1px dashed var(--mantine-color-gray-4)', borderRadius: 'var(--mantine-radius-sm)' }}
    >
      <Text size="xs" c="dimmed">
        No logo
      </Text>
    </Center>
  );
}

function SettingsForm({ settings }: { settings: EmailSettingsView }) {
  const queryClient = useQueryClient();
  const [values, setValues] = useState(() => valuesOf(settings));
  const [errors, setErrors] = useState<FieldErrors>({});
  const stored = (saved: EmailSettingsView) => {
    queryClient.setQueryData(emailSettingsKey, saved);
    setValues(valuesOf(saved));
  };
  const save = useMutation({
    mutationFn: (body: EmailSettingsUpdate) =>
      api.post('/api/v1/admin/email-settings', body, { schema: emailSettingsView }),
    onSuccess: (saved) => {
      stored(saved);
      notifications.show({
        color: 'teal',
        title: 'Saved',
        message: 'Every email now goes out with these settings.',
      });
    },
  });
  const upload = useMutation({
    mutationFn: async (file: File) => {
      const body = new FormData();
      body.append('file', file);
      return api.post('/api/v1/admin/email-settings/logo', body, { schema: emailSettingsView });
    },
    onSuccess: stored,
  });
  const remove = useMutation({
    mutationFn: () =>
      api.request('DELETE', '/api/v1/admin/email-settings/logo', { schema: emailSettingsView }),
    onSuccess: stored,
  });
  const test = useMutation({
    mutationFn: sendSettingsTest,
    onSuccess: ({ to }) =>
      notifications.show({
        color: 'teal',
        title: 'Test sent',
        message: `A test has been sent to ${to}. Without a mail server it waits in the Outbox.`,
      }),
  });
  const failure = save.error ?? upload.error ?? remove.error ?? test.error;
  const text =
    (field: 'from_name' | 'reply_to' | 'footer') => (event: { currentTarget: { value: string } }) => {
      const { value } = event.currentTarget;
      setValues((v) => ({ ...v, [field]: value }));
    };
  const sender = values.from_name.trim() || 'the installation’s sender name';

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = emailSettingsUpdate.safeParse(values);
    if (!parsed.success) return setErrors(fieldErrorsFromZod(parsed.error));
    setErrors({});
    save.mutate(parsed.data);
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Email settings">
      <Stack gap="md">
        <Card>
          <Stack gap="md">
            <Title order={2} fz="lg">
              Sender
            </Title>
            <TextInput
              label="Sender name"
              name="from_name"
              placeholder={settings.company_name}
              description={`Emails come from “${sender}” <${settings.from_address}>.`}
              value={values.from_name}
              onChange={text('from_name')}
              error={errors.from_name}
            />
            <TextInput
              label="Reply-to address"
              name="reply_to"
              type="email"
              placeholder="office@example.com"
              description="Where families' replies go. Without one, replies go to the sending address."
              value={values.reply_to}
              onChange={text('reply_to')}
              error={errors.reply_to}
            />
          </Stack>
        </Card>
        <Card>
          <Stack gap="md">
            <Title order={2} fz="lg">
              Footer and logo
            </Title>
            <Textarea
              label="Footer"
              name="footer"
              description="Plain text under every email: your address, phone, opening hours."
              autosize
              minRows={3}
              value={values.footer}
              onChange={text('footer')}
              error={errors.footer}
            />
            <Radio.Group
              label="Logo at the top of every email"
              name="logo"
              value={values.logo}
              onChange={(logo) => setValues((v) => ({ ...v, logo: logo as EmailSettingsUpdate['logo'] }))}
              error={errors.logo}
            >
              <Stack gap="sm" mt="xs">
                <Radio value="none" label="No logo" />
                <Group gap="md" align="center" wrap="nowrap">
                  <Radio
                    value="company"
                    label="The company logo"
                    description={settings.company_logo ? undefined : 'Upload it on My Company first.'}
                    disabled={!settings.company_logo}
                  />
                  {settings.company_logo ? <LogoPreview src={settings.company_logo} /> : null}
                </Group>
                <Group gap="md" align="center" wrap="wrap">
                  <Radio
                    value="own"
                    label="A logo for emails"
                    description="PNG, JPEG or GIF, up to 1 MB"
                    disabled={!settings.own_logo}
                  />
                  <LogoPreview src={settings.own_logo} />
                  <Group gap="xs">
                    <FileButton
                      accept="image/png,image/jpeg,image/gif"
                      onChange={(f) => f && upload.mutate(f)}
                    >
                      {(props) => (
                        <Button
                          {...props}
                          size="xs"
                          leftSection={<UploadIcon size={14} />}
                          loading={upload.isPending}
                        >
                          {settings.own_logo ? 'Replace logo' : 'Upload logo'}
                        </Button>
                      )}
                    </FileButton>
                    {settings.own_logo ? (
                      <Button
                        size="xs"
                        variant="light"
                        color="red"
                        loading={remove.isPending}
                        onClick={() => remove.mutate()}
                      >
                        Remove logo
                      </Button>
                    ) : null}
                  </Group>
                </Group>
              </Stack>
            </Radio.Group>
          </Stack>
        </Card>
        {failure ? (
          <Alert color="red" role="alert">
            {failureText(failure)}
          </Alert>
        ) : null}
        <Group justify="space-between" gap="xs">
          <Button variant="light" onClick={() => test.mutate()} loading={test.isPending}>
            Send me a test
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** /admin/settings/emails (SPEC settings/emails): what every email of the company carries. */
export function EmailSettingsPage() {
  const settings = useEmailSettings();
  return (
    <Stack gap="md" maw={760} w="100%" mx="auto">
      <PageTitle
        title="Email settings"
        description="The sender name, reply-to address, footer and logo of every email we send for you."
        actions={
          <Anchor component={Link} to="/admin/system-emails" size="sm">
            System emails
          </Anchor>
        }
      />
      {settings.isError ? (
        <Alert color="red" role="alert">
          {messages.formLoadFailed}
        </Alert>
      ) : settings.data ? (
        <SettingsForm settings={settings.data} />
      ) : (
        <PageLoader />
      )}
    </Stack>
  );
}
