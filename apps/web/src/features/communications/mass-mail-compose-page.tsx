import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  FileInput,
  Group,
  MultiSelect,
  NumberInput,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  type AttachmentResponse,
  type AudienceFilterInput,
  ENROLMENT_STATUSES,
  MAX_ATTACHMENT_BYTES,
  newMassMailRequest,
} from '@tumble/contracts/communications';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../api/client';
import { FormAlerts } from '../../components/form-alerts';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { useFormPost } from '../../components/use-form-post';
import { createMassMail, uploadAttachment, useAudience, useAudienceOptions } from './communications-api';
import { MassMailEditor } from './mass-mail-editor';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'].map(
  (label, i) => ({
    value: String(i + 1),
    label,
  }),
);
const STATUS_LABELS: Record<(typeof ENROLMENT_STATUSES)[number], string> = {
  active: 'Active',
  trial: 'Trial',
  waitlisted: 'Waitlisted',
  withdrawn: 'Withdrawn',
};

interface FilterValues {
  term_ids: string[];
  class_type_ids: string[];
  class_ids: string[];
  weekdays: string[];
  event_ids: string[];
  enrolment_statuses: string[];
  flag_ids: string[];
  party_from: string;
  party_to: string;
  age_min: number | string;
  age_max: number | string;
  unpaid_balance: boolean;
  consent_granted: boolean;
}
const EMPTY: FilterValues = {
  term_ids: [],
  class_type_ids: [],
  class_ids: [],
  weekdays: [],
  event_ids: [],
  enrolment_statuses: [],
  flag_ids: [],
  party_from: '',
  party_to: '',
  age_min: '',
  age_max: '',
  unpaid_balance: false,
  consent_granted: false,
};

/** The form's values as the API's filter. */
function toFilter(v: FilterValues): AudienceFilterInput {
  const ids = (values: string[]) => values.map(Number);
  const age = (value: number | string) => (value === '' ? null : Number(value));
  return {
    term_ids: ids(v.term_ids),
    class_type_ids: ids(v.class_type_ids),
    class_ids: ids(v.class_ids),
    weekdays: ids(v.weekdays),
    event_ids: ids(v.event_ids),
    enrolment_statuses: v.enrolment_statuses as AudienceFilterInput['enrolment_statuses'],
    flag_ids: ids(v.flag_ids),
    party_from: v.party_from || null,
    party_to: v.party_to || null,
    age_min: age(v.age_min),
    age_max: age(v.age_max),
    unpaid_balance: v.unpaid_balance,
    consent_granted: v.consent_granted,
  };
}

/** Compose a mass mail (SPEC communications): the message, who gets it (live), send now or later. */
export function MassMailComposePage() {
  const options = useAudienceOptions();
  const navigate = useNavigate();
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [marketing, setMarketing] = useState(true);
  const [filters, setFilters] = useState<FilterValues>(EMPTY);
  const [when, setWhen] = useState<'now' | 'later'>('now');
  const [sendAt, setSendAt] = useState('');
  const [attachment, setAttachment] = useState<AttachmentResponse | null>(null);
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string>();

  const filter = useMemo(() => toFilter(filters), [filters]);
  const [debounced] = useDebouncedValue(filter, 300);
  const audience = useAudience(debounced, marketing);
  const form = useFormPost(newMassMailRequest, createMassMail, {
    onAccepted: (response) => navigate(response.redirect ?? '/admin/communications'),
  });

  if (!options.data) return <PageLoader />;
  const o = options.data;
  const set =
    <K extends keyof FilterValues>(name: K) =>
    (value: FilterValues[K]) =>
      setFilters((f) => ({ ...f, [name]: value }));

  async function attach(file: File | null) {
    setUploadError(undefined);
    setAttachment(null);
    if (!file) return;
    if (file.size > MAX_ATTACHMENT_BYTES) {
      setUploadError('The attachment must be 5 MB or smaller.');
      return;
    }
    setUploading(true);
    try {
      setAttachment(await uploadAttachment(file));
    } catch (error) {
      setUploadError(error instanceof ApiError ? (error.serverMessage ?? error.message) : String(error));
    } finally {
      setUploading(false);
    }
  }

  const count = audience.data?.count;
  return (
    <Stack gap="lg">
      <PageTitle
        title="New mass mail"
        description="Write once; each family gets its own copy with its names filled in."
        actions={
          <Button component={Link} to="/admin/communications" variant="default">
            All mass mails
          </Button>
        }
      />
      <form
        onSubmit={(event) => {
          event.preventDefault();
          form.submit({
            subject,
            body,
            marketing,
            filter,
            send_at: when === 'later' ? sendAt || '' : null,
            attachment: attachment ? { key: attachment.key, name: attachment.name } : null,
          });
        }}
      >
        <Stack gap="lg">
          <FormAlerts failure={form.failure} summary={form.summary} />
          <Card withBorder padding="md">
            <Stack gap="sm">
              <TextInput
                label="Subject"
                required
                value={subject}
                onChange={(e) => setSubject(e.currentTarget.value)}
                error={form.fieldErrors.subject}
                description="Placeholders work here too, e.g. News for {parent_first_name}"
              />
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  Message
                </Text>
                <MassMailEditor value={body} onChange={setBody} invalid={Boolean(form.fieldErrors.body)} />
                {form.fieldErrors.body ? (
                  <Text size="xs" c="red">
                    {form.fieldErrors.body}
                  </Text>
                ) : null}
              </Stack>
              <FileInput
                label="Attachment"
                description="One file, up to 5 MB, attached to every family's mail."
                placeholder="Choose a file"
                clearable
                onChange={(file) => void attach(file)}
                error={uploadError ?? form.fieldErrors.attachment}
                rightSection={uploading ? <Text size="xs">…</Text> : undefined}
              />
              <Switch
                label="Marketing"
                description={
                  marketing
                    ? 'Families who unsubscribed are left out; each mail carries an unsubscribe link.'
                    : 'A service notice (e.g. "class cancelled today"): every matched family gets it.'
                }
                checked={marketing}
                onChange={(e) => setMarketing(e.currentTarget.checked)}
              />
            </Stack>
          </Card>

          <Card withBorder padding="md">
            <Stack gap="sm">
              <Text fw={700}>Recipients</Text>
              <Text size="sm" c="dimmed">
                Every filter you set narrows the list; several choices in one filter widen it.
              </Text>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                <MultiSelect
                  label="Term"
                  data={o.terms}
                  value={filters.term_ids}
                  onChange={set('term_ids')}
                  searchable
                  clearable
                />
                <MultiSelect
                  label="Class type"
                  data={o.class_types}
                  value={filters.class_type_ids}
                  onChange={set('class_type_ids')}
                  searchable
                  clearable
                />
                <MultiSelect
                  label="Class"
                  data={o.classes}
                  value={filters.class_ids}
                  onChange={set('class_ids')}
                  searchable
                  clearable
                />
                <MultiSelect
                  label="Weekday"
                  data={WEEKDAYS}
                  value={filters.weekdays}
                  onChange={set('weekdays')}
                  clearable
                />
                <MultiSelect
                  label="Enrolment status"
                  data={ENROLMENT_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
                  value={filters.enrolment_statuses}
                  onChange={set('enrolment_statuses')}
                  clearable
                />
                <MultiSelect
                  label="Event"
                  data={o.events}
                  value={filters.event_ids}
                  onChange={set('event_ids')}
                  searchable
                  clearable
                />
                <TextInput
                  label="Party from"
                  type="date"
                  value={filters.party_from}
                  onChange={(e) => set('party_from')(e.currentTarget.value)}
                />
                <TextInput
                  label="Party to"
                  type="date"
                  value={filters.party_to}
                  onChange={(e) => set('party_to')(e.currentTarget.value)}
                />
                <NumberInput
                  label="Children aged from"
                  min={0}
                  max={99}
                  value={filters.age_min}
                  onChange={set('age_min')}
                />
                <NumberInput
                  label="Children aged to"
                  min={0}
                  max={99}
                  value={filters.age_max}
                  onChange={set('age_max')}
                />
                <MultiSelect
                  label="Flags"
                  data={o.flags}
                  value={filters.flag_ids}
                  onChange={set('flag_ids')}
                  searchable
                  clearable
                />
                <Stack gap="xs" justify="flex-end">
                  <Checkbox
                    label="Unpaid balance"
                    checked={filters.unpaid_balance}
                    onChange={(e) => set('unpaid_balance')(e.currentTarget.checked)}
                  />
                  <Checkbox
                    label="Said yes to marketing"
                    checked={filters.consent_granted}
                    onChange={(e) => set('consent_granted')(e.currentTarget.checked)}
                  />
                </Stack>
              </SimpleGrid>
              <Group gap="xs">
                <Button variant="subtle" size="compact-sm" onClick={() => setFilters(EMPTY)}>
                  Clear filters
                </Button>
              </Group>
              {audience.isError ? (
                <Alert color="red">
                  {audience.error instanceof ApiError
                    ? audience.error.serverMessage
                    : 'The list could not be loaded.'}
                </Alert>
              ) : null}
              <Group gap="xs" aria-live="polite">
                <Badge size="lg" variant="light" data-testid="audience-count">
                  {count === undefined ? '…' : `${count} ${count === 1 ? 'family' : 'families'}`}
                </Badge>
                {audience.data?.unsubscribed ? (
                  <Text size="sm" c="dimmed">
                    {audience.data.unsubscribed} unsubscribed left out
                  </Text>
                ) : null}
              </Group>
              {audience.data && audience.data.families.length > 0 ? (
                <Table.ScrollContainer
                  minWidth={320}
                  mah={280}
                  // A box that scrolls is reached with the keyboard too (Tab, then the arrow keys).
                  scrollAreaProps={{
                    viewportProps: { tabIndex: 0, role: 'region', 'aria-label': 'Recipients' },
                  }}
                >
                  <Table striped aria-label="Recipients">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Family</Table.Th>
                        <Table.Th>Email</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {audience.data.families.map((f) => (
                        <Table.Tr key={f.id}>
                          <Table.Td>{f.name}</Table.Td>
                          <Table.Td style={{ wordBreak: 'break-all' }}>{f.email}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              ) : null}
              {audience.data && audience.data.count > audience.data.families.length ? (
                <Text size="xs" c="dimmed">
                  The first {audience.data.families.length} shown.
                </Text>
              ) : null}
            </Stack>
          </Card>

          <Card withBorder padding="md">
            <Stack gap="sm">
              <SegmentedControl
                value={when}
                onChange={(value) => setWhen(value as 'now' | 'later')}
                data={[
                  { value: 'now', label: 'Send now' },
                  { value: 'later', label: 'Schedule' },
                ]}
              />
              {when === 'later' ? (
                <TextInput
                  label={`Send at (${o.time_zone})`}
                  type="datetime-local"
                  value={sendAt}
                  onChange={(e) => setSendAt(e.currentTarget.value)}
                  error={form.fieldErrors.send_at}
                />
              ) : null}
              <Group>
                <Button type="submit" loading={form.pending} disabled={uploading || count === 0}>
                  {when === 'now'
                    ? `Send to ${count ?? '…'} ${count === 1 ? 'family' : 'families'}`
                    : 'Schedule'}
                </Button>
                <Anchor component={Link} to="/admin/mail" size="sm">
                  Outbox
                </Anchor>
              </Group>
            </Stack>
          </Card>
        </Stack>
      </form>
    </Stack>
  );
}
