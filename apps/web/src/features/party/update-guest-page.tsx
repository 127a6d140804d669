import { Alert, Box, Button, Card, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDocumentTitle, useMediaQuery } from '@mantine/hooks';
import { messages } from '@tumble/contracts/messages';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { useAcl } from '../../api/acl';
import { ApiError } from '../../api/client';
import { MOBILE_BREAKPOINT } from '../../app/theme';
import { BookingHeader } from '../../components/booking-header';
import { FormAlerts } from '../../components/form-alerts';
import type { FieldErrors } from '../../components/form-errors';
import { PageLoader } from '../../components/page-loader';
import { ParentsOnly } from '../../components/parents-only';
import { useFormPost } from '../../components/use-form-post';
import { postGuests, useGuestForm } from './api/update-guest';
import { type GuestField, type GuestRow, guestRows, initialGuestValues, shortLabel } from './guest-rows';

/** SPEC.md point 8: after a load failure the page says so, then goes to /admin after this long. */
export const LOAD_FAILURE_REDIRECT_MS = 3000;

const guestValues = z.record(z.string(), z.string());

/**
 * /birthday-party/update-guest/?id&authhash (SPEC.md point 2): the parent's guest list of a party
 * booking (`id` is its reference, from the confirmation mail). Up to 10 rows; a saved guest whose
 * parent has an email gets the party invitation.
 */
export function UpdateGuestPage() {
  return (
    <ParentsOnly>
      {(authhash, params) => <GuestListLoader id={params.get('id') ?? ''} authhash={authhash} />}
    </ParentsOnly>
  );
}

function GuestListLoader({ id, authhash }: { id: string; authhash: string }) {
  useDocumentTitle('Party guests');
  // Branding, and the signed-in parent's meta for the 403 rule.
  const acl = useAcl(authhash || undefined);
  const definition = useGuestForm(id, authhash, { enabled: id !== '' });
  const company = acl.data ? { name: acl.data.meta.company_name ?? '', logo: acl.data.meta.logo } : undefined;
  const failed = id === '' || definition.isError;

  let body: ReactNode;
  if (failed) {
    const message =
      definition.error instanceof ApiError
        ? (definition.error.serverMessage ?? messages.updateGuestLoadFailed)
        : messages.updateGuestLoadFailed;
    body = <LoadFailure message={message} />;
  } else if (definition.isPending) {
    body = <PageLoader />;
  } else {
    body = (
      <GuestForm id={id} authhash={authhash} title={definition.data.title} fields={definition.data.fields} />
    );
  }
  return (
    <Box>
      <BookingHeader company={company} loading={acl.isLoading} />
      {body}
    </Box>
  );
}

/** SPEC.md point 8: the failure message, then /admin after a short delay. */
function LoadFailure({ message }: { message: string }) {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = window.setTimeout(() => navigate('/admin', { replace: true }), LOAD_FAILURE_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [navigate]);
  return (
    <Card maw={560} mx="auto">
      <Stack gap="xs">
        <Alert color="red" role="alert">
          {message}
        </Alert>
        <Text size="sm" c="dimmed">
          Taking you to your account…
        </Text>
      </Stack>
    </Card>
  );
}

interface GuestFormProps {
  id: string;
  authhash: string;
  title: string;
  fields: GuestField[];
}

function GuestForm({ id, authhash, title, fields }: GuestFormProps) {
  const [values, setValues] = useState(() => initialGuestValues(fields));
  const desktop = useMediaQuery(`(min-width: ${MOBILE_BREAKPOINT})`);
  const form = useFormPost(guestValues, (body) => postGuests(id, authhash, body));
  const { rows, other } = guestRows(fields);

  function submit(event: FormEvent) {
    event.preventDefault();
    form.submit(values);
  }

  useEffect(() => {
    // The answer (saved, or what to fix) shows at the top of the form.
    if (form.summary || form.failure || form.accepted) window.scrollTo({ top: 0, behavior: 'smooth' });
  }, [form.summary, form.failure, form.accepted]);

  const change = (name: string, value: string) => setValues((previous) => ({ ...previous, [name]: value }));

  return (
    <Card component="form" onSubmit={submit} noValidate>
      <Stack gap="md">
        <Box>
          <Title order={1} fz={{ base: 22, sm: 28 }}>
            {title}
          </Title>
          <Text size="sm" c="dimmed">
            Add the children coming to the party. Each guest's parent with an email address gets the
            invitation, with a link to the waiver for their child.
          </Text>
        </Box>
        <FormAlerts failure={form.failure} summary={form.summary} />
        {form.accepted?.info ? (
          <Alert color="teal" role="status" title={form.accepted.info.title}>
            {form.accepted.info.message}
          </Alert>
        ) : null}

        {desktop ? (
          <GuestTable rows={rows} values={values} errors={form.fieldErrors} onChange={change} />
        ) : (
          <Stack gap="sm">
            {rows.map((row) => (
              <GuestCard
                key={row.position}
                row={row}
                values={values}
                errors={form.fieldErrors}
                onChange={change}
              />
            ))}
          </Stack>
        )}
        {other.map((field) => (
          <GuestInput
            key={field.name}
            field={field}
            label={field.label}
            value={values[field.name] ?? ''}
            error={form.fieldErrors[field.name]}
            onChange={change}
          />
        ))}

        <Group justify="flex-end">
          <Button type="submit" size="md" loading={form.pending} w={{ base: '100%', xs: 'auto' }}>
            Save guests
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

interface RowsProps {
  values: Record<string, string>;
  errors: FieldErrors;
  onChange: (name: string, value: string) => void;
}

/** From 769px: one table row per guest under one header. */
function GuestTable({ rows, values, errors, onChange }: RowsProps & { rows: GuestRow[] }) {
  const headers = rows[0]?.fields.map((field) => shortLabel(field.label)) ?? [];
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table verticalSpacing={6} horizontalSpacing="xs" withRowBorders={false} data-testid="guest-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={70}>Guest</Table.Th>
            {headers.map((header) => (
              <Table.Th key={header}>{header}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.position} data-testid="guest-row">
              <Table.Td fw={700} style={{ verticalAlign: 'top', paddingTop: 14 }}>
                {row.position}
              </Table.Td>
              {row.fields.map((field) => (
                <Table.Td key={field.name} style={{ verticalAlign: 'top' }}>
                  <GuestInput
                    field={field}
                    value={values[field.name] ?? ''}
                    error={errors[field.name]}
                    onChange={onChange}
                  />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Below 769px: one card per guest, labels above each field. */
function GuestCard({ row, values, errors, onChange }: RowsProps & { row: GuestRow }) {
  return (
    <Paper
      withBorder
      p="sm"
      radius="md"
      component="section"
      aria-label={`Guest ${row.position}`}
      data-testid="guest-row"
    >
      <Stack gap="xs">
        <Text fw={700} size="sm">{`Guest ${row.position}`}</Text>
        {row.fields.map((field) => (
          <GuestInput
            key={field.name}
            field={field}
            label={shortLabel(field.label)}
            value={values[field.name] ?? ''}
            error={errors[field.name]}
            onChange={onChange}
          />
        ))}
      </Stack>
    </Paper>
  );
}

interface GuestInputProps {
  field: GuestField;
  /** The visible label; none in the table, whose header names the column. */
  label?: string;
  value: string;
  error: string | undefined;
  onChange: (name: string, value: string) => void;
}

function GuestInput({ field, label, value, error, onChange }: GuestInputProps) {
  const type = field.type === 'email' ? 'email' : field.type === 'phone' ? 'tel' : 'text';
  return (
    <TextInput
      label={label}
      // The field's own label ('Guest 3: Parent’s email') names the input wherever it shows.
      aria-label={field.label}
      name={field.name}
      type={type}
      inputMode={type === 'tel' ? 'tel' : type === 'email' ? 'email' : undefined}
      autoComplete="off"
      value={value}
      onChange={(event) => onChange(field.name, event.currentTarget.value)}
      maxLength={field.max ?? undefined}
      withAsterisk={field.required}
      error={error}
    />
  );
}
