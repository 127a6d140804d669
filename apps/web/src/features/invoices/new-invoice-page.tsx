import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Card,
  Checkbox,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { newInvoice } from '@tumble/contracts/invoices';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { DateField } from '../../admin/fields/date-field';
import { dollarsToCents, formatMoney } from '../../admin/format';
import { PlusIcon } from '../../components/icons';
import { PageTitle } from '../../components/page-title';
import {
  createInvoice,
  failureText,
  invoiceKeys,
  useFamily,
  useFamilySearch,
  useNewInvoiceDefaults,
} from './invoices-api';

interface LineDraft {
  key: number;
  description: string;
  detail: string;
  quantity: string | number;
  unitPrice: string | number;
  gstFree: boolean;
}

let nextKey = 1;
const emptyLine = (): LineDraft => ({
  key: nextKey++,
  description: '',
  detail: '',
  quantity: 1,
  unitPrice: '',
  gstFree: false,
});

/** Where each error of the schema goes: `lines.0.description` → that line's description. */
function errorsByPath(issues: { path: PropertyKey[]; message: string }[]) {
  const errors: Record<string, string> = {};
  for (const issue of issues) errors[issue.path.join('.')] ??= issue.message;
  return errors;
}

/** /admin/invoices/new: a one-off invoice for a family (?family=<id> picks the family). */
export function NewInvoicePage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const defaults = useNewInvoiceDefaults();
  const familyParam = Number(params.get('family'));
  const preset = useFamily(Number.isInteger(familyParam) && familyParam > 0 ? familyParam : null);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const families = useFamilySearch(debounced);
  const [parentId, setParentId] = useState<string | null>(null);
  const [lines, setLines] = useState<LineDraft[]>([emptyLine()]);
  const [dueOn, setDueOn] = useState<string | null>(null);
  const [notes, setNotes] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation({ mutationFn: createInvoice });

  useEffect(() => {
    if (defaults.data && dueOn === null) setDueOn(defaults.data.due_on);
  }, [defaults.data, dueOn]);
  useEffect(() => {
    if (preset.data && parentId === null) setParentId(String(preset.data.id));
  }, [preset.data, parentId]);

  const familyChoices = [
    ...(preset.data ? [preset.data] : []),
    ...(families.data?.data ?? []).filter((f) => f.id !== preset.data?.id),
  ].map((f) => ({ value: String(f.id), label: `${f.full_name ?? ''} · ${f.email ?? ''}` }));
  const currency = defaults.data?.currency;
  const total = lines.reduce(
    (sum, line) => sum + (Number(line.quantity) || 0) * (dollarsToCents(line.unitPrice) ?? 0),
    0,
  );
  const setLine = (key: number, change: Partial<LineDraft>) =>
    setLines((current) => current.map((line) => (line.key === key ? { ...line, ...change } : line)));

  function submit(issue: boolean) {
    return (event?: FormEvent) => {
      event?.preventDefault();
      const parsed = newInvoice.safeParse({
        parent_id: parentId ? Number(parentId) : undefined,
        lines: lines.map((line) => ({
          description: line.description,
          detail: line.detail,
          quantity: line.quantity === '' ? undefined : Number(line.quantity),
          unit_amount: dollarsToCents(line.unitPrice) ?? undefined,
          gst_free: line.gstFree,
        })),
        due_on: dueOn ?? undefined,
        notes,
        issue,
      });
      if (!parsed.success) {
        setErrors(errorsByPath(parsed.error.issues));
        return;
      }
      setErrors({});
      save.mutate(parsed.data, {
        onSuccess: async (response) => {
          notifications.show({
            color: 'teal',
            title: issue ? 'Invoice issued' : 'Draft saved',
            message: response.message,
          });
          await queryClient.invalidateQueries({ queryKey: invoiceKeys.all });
          await navigate(`/admin/invoices/${response.id}`);
        },
      });
    };
  }

  return (
    <Stack gap="md" maw={960} w="100%" mx="auto">
      <Anchor component={Link} to="/admin/invoices" size="sm">
        ← Invoices
      </Anchor>
      <PageTitle title="New invoice" description="A one-off invoice to a family, GST worked out per line." />
      <form onSubmit={submit(false)} noValidate aria-label="New invoice">
        <Stack gap="md">
          {save.isError ? (
            <Alert color="red" role="alert">
              {failureText(save.error)}
            </Alert>
          ) : null}
          <Card p={{ base: 'sm', sm: 'md' }}>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Select
                label="Family"
                name="parent_id"
                placeholder="Search parents by name or email"
                withAsterisk
                searchable
                data={familyChoices}
                value={parentId}
                onChange={setParentId}
                searchValue={search}
                onSearchChange={setSearch}
                nothingFoundMessage={families.isFetching ? 'Searching…' : 'No parent matches.'}
                filter={({ options }) => options}
                error={errors.parent_id}
              />
              <DateField
                label="Due date"
                name="due_on"
                withAsterisk
                value={dueOn}
                onChange={setDueOn}
                minDate={defaults.data?.today}
                error={errors.due_on}
              />
            </SimpleGrid>
          </Card>
          <Card p={{ base: 'sm', sm: 'md' }}>
            <Stack gap="sm">
              <Title order={2} fz="lg">
                Lines
              </Title>
              {errors.lines ? (
                <Alert color="red" role="alert">
                  {errors.lines}
                </Alert>
              ) : null}
              {lines.map((line, i) => (
                <Stack
                  key={line.key}
                  gap="xs"
                  pb="sm"
                  style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
                  aria-label={`Line ${i + 1}`}
                  role="group"
                >
                  <Group align="flex-start" gap="xs" wrap="nowrap">
                    <TextInput
                      label="Description"
                      withAsterisk
                      style={{ flex: 1 }}
                      value={line.description}
                      onChange={(e) => setLine(line.key, { description: e.currentTarget.value })}
                      error={errors[`lines.${i}.description`]}
                    />
                    {lines.length > 1 ? (
                      <ActionIcon
                        mt={28}
                        variant="subtle"
                        color="red"
                        aria-label={`Remove line ${i + 1}`}
                        onClick={() => setLines((current) => current.filter((l) => l.key !== line.key))}
                      >
                        ×
                      </ActionIcon>
                    ) : null}
                  </Group>
                  <TextInput
                    label="Detail"
                    description="How the line was worked out, as the family reads it"
                    value={line.detail}
                    onChange={(e) => setLine(line.key, { detail: e.currentTarget.value })}
                    error={errors[`lines.${i}.detail`]}
                  />
                  <Group gap="sm" align="flex-end" wrap="wrap">
                    <NumberInput
                      label="Quantity"
                      w={110}
                      min={1}
                      max={1000}
                      allowDecimal={false}
                      value={line.quantity}
                      onChange={(quantity) => setLine(line.key, { quantity })}
                      error={errors[`lines.${i}.quantity`]}
                    />
                    <NumberInput
                      label="Unit price (GST incl.)"
                      w={170}
                      prefix="$"
                      decimalScale={2}
                      fixedDecimalScale
                      thousandSeparator=","
                      value={line.unitPrice}
                      onChange={(unitPrice) => setLine(line.key, { unitPrice })}
                      error={errors[`lines.${i}.unit_amount`]}
                    />
                    <Checkbox
                      label="GST-free"
                      mb={8}
                      checked={line.gstFree}
                      onChange={(e) => setLine(line.key, { gstFree: e.currentTarget.checked })}
                    />
                  </Group>
                </Stack>
              ))}
              <Group justify="space-between">
                <Button
                  size="xs"
                  variant="light"
                  leftSection={<PlusIcon size={14} />}
                  onClick={() => setLines((current) => [...current, emptyLine()])}
                >
                  Add a line
                </Button>
                <Text fw={600} data-testid="new-invoice-total">
                  Total {currency ? formatMoney(total, currency) : formatMoney(total)}
                </Text>
              </Group>
            </Stack>
          </Card>
          <Card p={{ base: 'sm', sm: 'md' }}>
            <Textarea
              label="Notes"
              description="Printed on the invoice"
              autosize
              minRows={2}
              value={notes}
              onChange={(e) => setNotes(e.currentTarget.value)}
              error={errors.notes}
            />
          </Card>
          <Group justify="flex-end" gap="sm">
            <Button type="submit" variant="default" loading={save.isPending && !save.variables?.issue}>
              Save as draft
            </Button>
            <Button onClick={submit(true)} loading={save.isPending && save.variables?.issue}>
              Issue and email
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
