import {
  Alert,
  Anchor,
  Button,
  Card,
  Center,
  CopyButton,
  FileButton,
  Group,
  Image,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type CompanySettings,
  companySettingsUpdate,
  currencies,
  currencyNames,
  timeZones,
} from '@tumble/contracts/admin-accounts';
import { messages } from '@tumble/contracts/messages';
import { type ChangeEvent, type FormEvent, useState } from 'react';
import { z } from 'zod';
import { aclKeys } from '../../api/acl';
import { ApiError, api } from '../../api/client';
import { FormAlerts } from '../../components/form-alerts';
import { UploadIcon } from '../../components/icons';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { useFormPost } from '../../components/use-form-post';
import { useCompanyLogo } from './api/company-logo';
import { useMyCompany } from './api/get-my-company';
import { accountKeys } from './api/keys';
import { updateMyCompany } from './api/update-my-company';
import { publicLinks } from './booking-links';

const currencyChoices = currencies.map((code) => ({
  value: code,
  label: `${code} · ${currencyNames[code]}`,
}));
const timeZoneChoices = timeZones.map((zone) => ({ value: zone, label: zone.replace('Australia/', '') }));

function errorText(error: unknown): string {
  return error instanceof ApiError
    ? (error.serverMessage ?? messages.communicationError)
    : messages.communicationError;
}

function CompanyForm({ company }: { company: CompanySettings }) {
  const queryClient = useQueryClient();
  const [values, setValues] = useState({
    name: company.name,
    email: company.email,
    phone: company.phone,
    time_zone: company.time_zone as string,
    currency: company.currency as string,
  });
  const form = useFormPost(companySettingsUpdate, updateMyCompany, {
    onAccepted: (response) => {
      notifications.show({
        color: 'teal',
        title: response.info?.title ?? 'Saved',
        message: response.info?.message ?? 'The company settings have been saved.',
      });
      void queryClient.invalidateQueries({ queryKey: accountKeys.myCompany });
      // The sidebar shows the company's name.
      void queryClient.invalidateQueries({ queryKey: aclKeys.all });
    },
  });
  const set = (field: 'name' | 'email' | 'phone') => (event: ChangeEvent<HTMLInputElement>) => {
    const { value } = event.currentTarget;
    setValues((v) => ({ ...v, [field]: value }));
  };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    form.submit({ ...values, email: values.email.trim() });
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Company details">
      <Card>
        <Stack gap="md">
          <Title order={2} fz="lg">
            Company details
          </Title>
          <FormAlerts failure={form.failure} summary={form.summary} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Company name"
              name="name"
              withAsterisk
              value={values.name}
              onChange={set('name')}
              error={form.fieldErrors.name}
            />
            <TextInput
              label="Email address"
              name="email"
              type="email"
              value={values.email}
              onChange={set('email')}
              error={form.fieldErrors.email}
            />
            <TextInput
              label="Phone"
              name="phone"
              type="tel"
              value={values.phone}
              onChange={set('phone')}
              error={form.fieldErrors.phone}
            />
            <Select
              label="Time zone"
              name="time_zone"
              withAsterisk
              data={timeZoneChoices}
              value={values.time_zone}
              onChange={(zone) => setValues((v) => ({ ...v, time_zone: zone ?? '' }))}
              allowDeselect={false}
              error={form.fieldErrors.time_zone}
            />
            <Select
              label="Currency"
              name="currency"
              description="Prices, payments, receipts and invoices use it."
              withAsterisk
              searchable
              data={currencyChoices}
              value={values.currency}
              onChange={(code) => setValues((v) => ({ ...v, currency: code ?? '' }))}
              allowDeselect={false}
              error={form.fieldErrors.currency}
            />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button type="submit" loading={form.pending}>
              Save
            </Button>
          </Group>
        </Stack>
      </Card>
    </form>
  );
}

function LogoCard({ company }: { company: CompanySettings }) {
  const logo = useCompanyLogo();
  const failure = logo.upload.error ?? logo.remove.error;
  return (
    <Card>
      <Stack gap="md">
        <Title order={2} fz="lg">
          Logo
        </Title>
        <Group gap="lg" align="center" wrap="wrap">
          {company.logo ? (
            <Image src={company.logo} alt={`${company.name} logo`} w={96} h={96} fit="contain" radius="md" />
          ) : (
            <Center
              w={96}
              h={96}
              style={{
                border: '1px dashed var(--mantine-color-gray-4)',
                borderRadius: 'var(--mantine-radius-md)',
              }}
            >
              <Text size="xs" c="dimmed">
                No logo
              </Text>
            </Center>
          )}
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              PNG, JPEG, GIF or WebP, up to 2 MB. Shown in the sidebar and on your public pages.
            </Text>
            <Group gap="xs">
              <FileButton
                accept="image/png,image/jpeg,image/gif,image/webp"
                onChange={(file) => file && logo.upload.mutate(file)}
              >
                {(props) => (
                  <Button
                    {...props}
                    size="xs"
                    leftSection={<UploadIcon size={14} />}
                    loading={logo.upload.isPending}
                  >
                    {company.logo ? 'Replace logo' : 'Upload logo'}
                  </Button>
                )}
              </FileButton>
              {company.logo ? (
                <Button
                  size="xs"
                  variant="light"
                  color="red"
                  loading={logo.remove.isPending}
                  onClick={() => logo.remove.mutate()}
                >
                  Remove logo
                </Button>
              ) : null}
            </Group>
          </Stack>
        </Group>
        {failure ? (
          <Alert color="red" role="alert">
            {errorText(failure)}
          </Alert>
        ) : null}
      </Stack>
    </Card>
  );
}

function LinkRow({ label, url }: { label: string; url: string }) {
  return (
    <Stack gap={2} role="listitem" py="xs" style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <CopyButton value={url}>
          {({ copied, copy }) => (
            <Button size="compact-sm" variant="subtle" onClick={copy} aria-label={`Copy the ${label} link`}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
      <Anchor href={url} target="_blank" rel="noopener" size="sm" style={{ overflowWrap: 'anywhere' }}>
        {url}
      </Anchor>
    </Stack>
  );
}

const publishedEvents = z.object({ data: z.array(z.object({ id: z.number(), name: z.string() })) });

function PublicLinksCard({ company }: { company: CompanySettings }) {
  const links = publicLinks(window.location.origin, company.authhash);
  // Only published events have a public page; an unpublished one's link would answer 'No event data available.'
  const events = useQuery({
    queryKey: ['accounts', 'my-company', 'events'],
    queryFn: ({ signal }) =>
      api.get('/api/v1/admin/events', {
        query: {
          perPage: 100,
          sort: 'start_date',
          order: 'desc',
          filter: JSON.stringify({ published: true }),
        },
        schema: publishedEvents,
        signal,
      }),
    retry: false,
  });
  return (
    <Card>
      <Stack gap="md">
        <Title order={2} fz="lg">
          Public booking links
        </Title>
        <TextInput
          label="Company code (authhash)"
          description="Your public pages name your company with this code."
          value={company.authhash}
          readOnly
          rightSectionWidth={72}
          rightSection={
            <CopyButton value={company.authhash}>
              {({ copied, copy }) => (
                <Button size="compact-sm" variant="subtle" onClick={copy}>
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
          }
        />
        <Stack gap={0} role="list" aria-label="Public links">
          <LinkRow label="Birthday party booking" url={links.partyBooking} />
          <LinkRow label="Parent sign-in" url={links.parentSignIn} />
          <LinkRow label="Parent sign-up" url={links.parentSignUp} />
          {(events.data?.data ?? []).map((event) => (
            <LinkRow
              key={event.id}
              label={`Event: ${event.name}`}
              url={links.eventBooking(company.id, event.id)}
            />
          ))}
        </Stack>
      </Stack>
    </Card>
  );
}

/** /admin/my-company: company details, logo and public booking links (company administrators). */
export function MyCompanyPage() {
  const company = useMyCompany();
  return (
    <Stack gap="md" maw={960} w="100%" mx="auto">
      <PageTitle title="My Company" description="Your company's details, logo and public booking links." />
      {company.isError ? (
        <Alert color="red" role="alert">
          {messages.formLoadFailed}
        </Alert>
      ) : company.data ? (
        <>
          <CompanyForm company={company.data} />
          <LogoCard company={company.data} />
          <PublicLinksCard company={company.data} />
        </>
      ) : (
        <PageLoader />
      )}
    </Stack>
  );
}
