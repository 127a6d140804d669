import {
  Alert,
  Button,
  Card,
  Center,
  FileButton,
  Group,
  Image,
  NumberInput,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { formatAbn } from '@tumble/contracts/billing';
import {
  type BillingProfileView,
  billingProfileUpdate,
  billingProfileView,
  formatBsb,
} from '@tumble/contracts/invoices';
import { messages } from '@tumble/contracts/messages';
import { type FormEvent, useState } from 'react';
import { z } from 'zod';
import { ApiError, api } from '../../api/client';
import { type FieldErrors, fieldErrorsFromZod } from '../../components/form-errors';
import { UploadIcon } from '../../components/icons';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';

const profileKey = ['billing-profile'] as const;
const logoResponse = z.object({ logo: z.string() });

function failureText(error: unknown): string {
  return error instanceof ApiError
    ? (error.serverMessage ?? messages.communicationError)
    : messages.communicationError;
}

type Values = {
  legal_name: string;
  abn: string;
  gst_registered: boolean;
  address: string;
  invoice_prefix: string;
  next_invoice_number: string | number;
  days_until_due: string | number;
  bank_account_name: string;
  bsb: string;
  bank_account_number: string;
  late_fee_policy: string;
};

const valuesOf = (p: BillingProfileView): Values => ({
  legal_name: p.legal_name,
  abn: p.abn ? formatAbn(p.abn) : '',
  gst_registered: p.gst_registered,
  address: p.address,
  invoice_prefix: p.invoice_prefix,
  next_invoice_number: p.next_invoice_number,
  days_until_due: p.days_until_due,
  bank_account_name: p.bank_account_name,
  bsb: p.bsb ? formatBsb(p.bsb) : '',
  bank_account_number: p.bank_account_number,
  late_fee_policy: p.late_fee_policy,
});

function ProfileForm({ profile }: { profile: BillingProfileView }) {
  const queryClient = useQueryClient();
  const [values, setValues] = useState(() => valuesOf(profile));
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: (body: z.infer<typeof billingProfileUpdate>) =>
      api.post('/api/v1/admin/billing-profile', body, { schema: billingProfileView }),
    onSuccess: (saved) => {
      queryClient.setQueryData(profileKey, saved);
      setValues(valuesOf(saved));
      notifications.show({ color: 'teal', title: 'Saved', message: 'The billing profile has been saved.' });
    },
  });
  const text = (field: keyof Values) => (event: { currentTarget: { value: string } }) => {
    const { value } = event.currentTarget;
    setValues((v) => ({ ...v, [field]: value }));
  };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const number = (value: string | number) => (value === '' ? undefined : Number(value));
    const parsed = billingProfileUpdate.safeParse({
      ...values,
      next_invoice_number: number(values.next_invoice_number),
      days_until_due: number(values.days_until_due),
    });
    if (!parsed.success) return setErrors(fieldErrorsFromZod(parsed.error));
    setErrors({});
    save.mutate(parsed.data);
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Billing profile">
      <Stack gap="md">
        {save.isError ? (
          <Alert color="red" role="alert">
            {failureText(save.error)}
          </Alert>
        ) : null}
        <Card>
          <Stack gap="md">
            <Title order={2} fz="lg">
              Business
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label="Legal name"
                name="legal_name"
                withAsterisk
                value={values.legal_name}
                onChange={text('legal_name')}
                error={errors.legal_name}
              />
              <TextInput
                label="ABN"
                name="abn"
                placeholder="51 824 753 556"
                inputMode="numeric"
                value={values.abn}
                onChange={text('abn')}
                onBlur={() =>
                  setValues((v) => ({
                    ...v,
                    abn: /^\d{11}$/.test(v.abn.replace(/\s/g, '')) ? formatAbn(v.abn) : v.abn,
                  }))
                }
                error={errors.abn}
              />
            </SimpleGrid>
            <Switch
              label="Registered for GST"
              description="Invoices are tax invoices showing the GST; an ABN is needed."
              name="gst_registered"
              checked={values.gst_registered}
              onChange={(e) => {
                const { checked } = e.currentTarget;
                setValues((v) => ({ ...v, gst_registered: checked }));
              }}
            />
            <Textarea
              label="Address"
              name="address"
              autosize
              minRows={2}
              value={values.address}
              onChange={text('address')}
              error={errors.address}
            />
          </Stack>
        </Card>
        <Card>
          <Stack gap="md">
            <Title order={2} fz="lg">
              Invoices
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <TextInput
                label="Invoice number prefix"
                name="invoice_prefix"
                value={values.invoice_prefix}
                onChange={text('invoice_prefix')}
                error={errors.invoice_prefix}
              />
              <NumberInput
                label="Next invoice number"
                name="next_invoice_number"
                description={`Can only move forward (now ${profile.lowest_next_number} or more)`}
                min={1}
                allowDecimal={false}
                value={values.next_invoice_number}
                onChange={(n) => setValues((v) => ({ ...v, next_invoice_number: n }))}
                error={errors.next_invoice_number}
              />
              <NumberInput
                label="Days until due"
                name="days_until_due"
                description="0 to 120 days after the issue date"
                min={0}
                max={120}
                allowDecimal={false}
                value={values.days_until_due}
                onChange={(n) => setValues((v) => ({ ...v, days_until_due: n }))}
                error={errors.days_until_due}
              />
            </SimpleGrid>
            <Textarea
              label="Late-fee policy"
              name="late_fee_policy"
              description="Printed on every invoice"
              placeholder="A $10 late fee applies 7 days after the due date."
              autosize
              minRows={2}
              value={values.late_fee_policy}
              onChange={text('late_fee_policy')}
              error={errors.late_fee_policy}
            />
          </Stack>
        </Card>
        <Card>
          <Stack gap="md">
            <Title order={2} fz="lg">
              Bank details for transfers
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <TextInput
                label="Account name"
                name="bank_account_name"
                value={values.bank_account_name}
                onChange={text('bank_account_name')}
                error={errors.bank_account_name}
              />
              <TextInput
                label="BSB"
                name="bsb"
                placeholder="062-000"
                inputMode="numeric"
                value={values.bsb}
                onChange={text('bsb')}
                onBlur={() =>
                  setValues((v) => ({
                    ...v,
                    bsb: /^\d{6}$/.test(v.bsb.trim()) ? formatBsb(v.bsb.trim()) : v.bsb,
                  }))
                }
                error={errors.bsb}
              />
              <TextInput
                label="Account number"
                name="bank_account_number"
                inputMode="numeric"
                value={values.bank_account_number}
                onChange={text('bank_account_number')}
                error={errors.bank_account_number}
              />
            </SimpleGrid>
          </Stack>
        </Card>
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function LogoCard({ profile }: { profile: BillingProfileView }) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: profileKey });
  const upload = useMutation({
    mutationFn: async (file: File) => {
      const body = new FormData();
      body.append('file', file);
      return api.post('/api/v1/admin/billing-profile/logo', body, { schema: logoResponse });
    },
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: () => api.request('DELETE', '/api/v1/admin/billing-profile/logo'),
    onSuccess: refresh,
  });
  const failure = upload.error ?? remove.error;
  return (
    <Card>
      <Stack gap="md">
        <Title order={2} fz="lg">
          Logo on invoices
        </Title>
        <Group gap="lg" align="center" wrap="wrap">
          {profile.logo ? (
            <Image src={profile.logo} alt="Invoice logo" w={96} h={96} fit="contain" radius="md" />
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
              PNG or JPEG, up to 2 MB. Printed at the top of invoices and credit notes.
            </Text>
            <Group gap="xs">
              <FileButton accept="image/png,image/jpeg" onChange={(file) => file && upload.mutate(file)}>
                {(props) => (
                  <Button
                    {...props}
                    size="xs"
                    leftSection={<UploadIcon size={14} />}
                    loading={upload.isPending}
                  >
                    {profile.logo ? 'Replace logo' : 'Upload logo'}
                  </Button>
                )}
              </FileButton>
              {profile.logo ? (
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
          </Stack>
        </Group>
        {failure ? (
          <Alert color="red" role="alert">
            {failureText(failure)}
          </Alert>
        ) : null}
      </Stack>
    </Card>
  );
}

/** /admin/billing-profile (SPEC billing-profile): the company as the supplier on its tax invoices. */
export function BillingProfilePage() {
  const profile = useQuery({
    queryKey: profileKey,
    queryFn: ({ signal }) => api.get('/api/v1/admin/billing-profile', { schema: billingProfileView, signal }),
  });
  return (
    <Stack gap="md" maw={960} w="100%" mx="auto">
      <PageTitle
        title="Billing profile"
        description="Your business as it appears on tax invoices: ABN, GST, numbering, due dates and bank details."
      />
      {profile.isError ? (
        <Alert color="red" role="alert">
          {messages.formLoadFailed}
        </Alert>
      ) : profile.data ? (
        <>
          <ProfileForm profile={profile.data} />
          <LogoCard profile={profile.data} />
        </>
      ) : (
        <PageLoader />
      )}
    </Stack>
  );
}
