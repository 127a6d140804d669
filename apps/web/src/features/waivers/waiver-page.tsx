import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Checkbox,
  Group,
  Loader,
  Paper,
  ScrollArea,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { messages } from '@tumble/contracts/messages';
import {
  type AskField,
  type WaiverChildInfo,
  type WaiverKind,
  type WaiverPageResponse,
  type WaiverPerson,
  waiverMessages,
  waiverSubmitRequest,
} from '@tumble/contracts/waiver';
import { type FormEvent, type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { formatLocalDate } from '../../admin/format';
import { RichTextView } from '../../admin/rich-text-view';
import { useAcl } from '../../api/acl';
import { ApiError, api } from '../../api/client';
import { BookingHeader } from '../../components/booking-header';
import { localToday } from '../../components/date-of-birth';
import { DateOfBirthInput } from '../../components/date-of-birth-input';
import { FormAlerts } from '../../components/form-alerts';
import { PageLoader } from '../../components/page-loader';
import { ServerHtml } from '../../components/server-html';
import { SuccessCard } from '../../components/success-card';
import { useFormPost } from '../../components/use-form-post';
import {
  submitWaiver,
  useWaiverCheck,
  useWaiverChildInfo,
  useWaiverMark,
  useWaiverPage,
} from './api/waiver-api';
import { reloadPage } from './reload-page';
import { SignaturePad } from './signature-pad';

/** SPEC.md point 4 and 9: after a waiver is signed the page reloads after 1 second. */
export const WAIVER_RELOAD_DELAY_MS = 1000;

type Waiver = NonNullable<WaiverPageResponse['waiver']>;

/** /event-booking/waiver/?id&authhash: one waiver per child of an event booking. */
export function EventWaiverPage() {
  return <WaiverPage kind="event" />;
}

/** /birthday-party/waiver/?id&authhash: the birthday child's waiver, or one party guest's. */
export function PartyWaiverPage() {
  return <WaiverPage kind="party" />;
}

/**
 * The public waiver page (SPEC.md points 2, 4 and 7). The people of the booking are signed for one
 * at a time: for each, a waiver signed earlier for the same template version is reused (check, then
 * mark); otherwise the parent fills in and signs the form.
 */
export function WaiverPage({ kind }: { kind: WaiverKind }) {
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const authhash = params.get('authhash') ?? '';
  const acl = useAcl(authhash || undefined, { enabled: authhash !== '' });
  const company = acl.data ? { name: acl.data.meta.company_name ?? '', logo: acl.data.meta.logo } : undefined;
  useDocumentTitle('Waiver');

  useEffect(() => {
    if (authhash) api.setAuthHash(authhash);
  }, [authhash]);

  return (
    <Stack maw={760} mx="auto" gap={0}>
      <BookingHeader company={company} loading={acl.isLoading} />
      {id === '' ? (
        <ProblemCard message={waiverMessages.invalidLink} />
      ) : (
        <WaiverFlow kind={kind} id={id} authhash={authhash} />
      )}
    </Stack>
  );
}

interface FlowProps {
  kind: WaiverKind;
  id: string;
  authhash: string;
}

function WaiverFlow({ kind, id, authhash }: FlowProps) {
  const page = useWaiverPage(kind, id, authhash);
  /**
   * The person whose earlier waiver was just reused. The reload of the list shows them signed; they
   * stay on screen (with SPEC's message) until the parent moves on, rather than the next person's
   * form replacing the message at once.
   */
  const [reusedFor, setReusedFor] = useState<number | null>(null);
  const { refetch } = page;
  const onReused = useCallback(
    (personId: number) => {
      setReusedFor(personId);
      void refetch();
    },
    [refetch],
  );

  if (page.isPending) return <PageLoader />;
  if (page.isError) {
    return <ProblemCard message={errorText(page.error)} onRetry={() => void refetch()} />;
  }
  const data = page.data;
  if (!data.valid) return <ProblemCard message={data.message || waiverMessages.invalidLink} />;
  if (!data.waiver || data.people.length === 0) {
    return (
      <Card>
        <Alert color="blue" role="status">
          {waiverMessages.notNeeded}
        </Alert>
      </Card>
    );
  }

  const waiver = data.waiver;
  const reused = data.people.find((person) => person.id === reusedFor);
  const active = reused ?? data.people.find((person) => person.status === 'needed');
  const next = data.people.find((person) => person.status === 'needed' && person.id !== active?.id);
  const everyoneSigned = next === undefined && (active === undefined || active === reused);

  return (
    <Stack gap="md">
      <Card>
        <Stack gap="sm">
          <Box>
            <Title order={1} fz={{ base: 22, sm: 28 }}>
              {data.title}
            </Title>
            <Text c="dimmed">{waiver.title}</Text>
          </Box>
          <PeopleList people={data.people} activeId={active?.id} />
        </Stack>
      </Card>
      {active ? (
        <PersonStep
          key={active.id}
          kind={kind}
          id={id}
          authhash={authhash}
          hash={data.hash}
          waiver={waiver}
          person={active}
          onReused={onReused}
          afterReuse={
            next ? (
              <Group justify="flex-end">
                <Button
                  onClick={() => setReusedFor(null)}
                  // The list must show the reused waiver first, or the same person would come back.
                  loading={page.isFetching}
                  w={{ base: '100%', xs: 'auto' }}
                >
                  Continue
                </Button>
              </Group>
            ) : null
          }
        />
      ) : null}
      {everyoneSigned ? <SuccessCard title="All signed">{waiverMessages.allSigned}</SuccessCard> : null}
    </Stack>
  );
}

/** Every person of the booking and whether their waiver is signed, so a family sees its progress. */
function PeopleList({ people, activeId }: { people: WaiverPerson[]; activeId: number | undefined }) {
  const signed = people.filter((person) => person.status === 'signed').length;
  return (
    <Stack gap={6}>
      <Text size="sm" fw={600}>{`${signed} of ${people.length} signed`}</Text>
      <Stack gap={4} component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Waivers">
        {people.map((person) => (
          <Group
            key={person.id}
            component="li"
            justify="space-between"
            wrap="nowrap"
            gap="xs"
            py={6}
            style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}
            data-testid="waiver-person"
          >
            <Text fw={person.id === activeId ? 700 : 400} style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
              {fullName(person)}
            </Text>
            <PersonStatus person={person} active={person.id === activeId} />
          </Group>
        ))}
      </Stack>
    </Stack>
  );
}

function PersonStatus({ person, active }: { person: WaiverPerson; active: boolean }) {
  if (person.status === 'signed') {
    return (
      <Badge color="teal" variant="light" style={{ flexShrink: 0 }}>
        {person.signed_at ? `Signed ${formatLocalDate(person.signed_at)}` : 'Signed'}
      </Badge>
    );
  }
  return (
    <Badge color={active ? 'blue' : 'orange'} variant="light" style={{ flexShrink: 0 }}>
      {active ? 'Signing now' : 'Needs signing'}
    </Badge>
  );
}

interface PersonStepProps extends FlowProps {
  hash: string;
  waiver: Waiver;
  person: WaiverPerson;
  onReused: (personId: number) => void;
  /** What follows SPEC's message once an earlier waiver was reused (the way on to the next person). */
  afterReuse: ReactNode;
}

/** One person: reuse a waiver signed earlier if there is one, otherwise the form. */
function PersonStep({ kind, id, authhash, hash, waiver, person, onReused, afterReuse }: PersonStepProps) {
  const check = useWaiverCheck(kind, id, authhash, person.id);
  const found = check.data?.valid && check.data.found ? check.data : null;
  const mark = useWaiverMark(
    kind,
    found ? { authhash, guest_id: person.id, hash, waiver_id: found.id } : null,
  );
  const reused = mark.data?.valid === true;

  useEffect(() => {
    if (reused) onReused(person.id);
  }, [reused, onReused, person.id]);

  let body: ReactNode;
  if (check.isPending || (found && mark.isPending)) {
    body = <Working label="Looking for a waiver you signed before…" />;
  } else if (check.isError) {
    body = <ErrorAlert message={errorText(check.error)} onRetry={() => void check.refetch()} />;
  } else if (!check.data.valid) {
    // SPEC.md point 8: an invalid check shows the server's message.
    body = <ErrorAlert message={check.data.message} />;
  } else if (found) {
    if (mark.isError) {
      body = <ErrorAlert message={errorText(mark.error)} onRetry={() => void mark.refetch()} />;
    } else if (!reused) {
      body = <ErrorAlert message={mark.data?.message || messages.waiverFailed} />;
    } else {
      body = (
        <Stack gap="md">
          <Alert color="teal" role="status">
            {messages.waiverFound}
          </Alert>
          {afterReuse}
        </Stack>
      );
    }
  } else {
    body = <WaiverFormLoader kind={kind} id={id} authhash={authhash} waiver={waiver} person={person} />;
  }

  return (
    <Card component="section" aria-label={`Waiver for ${fullName(person)}`}>
      <Stack gap="md">
        <Title order={2} size="h3">
          {`Waiver for ${fullName(person)}`}
        </Title>
        {body}
      </Stack>
    </Card>
  );
}

interface FormProps extends FlowProps {
  waiver: Waiver;
  person: WaiverPerson;
}

function WaiverFormLoader(props: FormProps) {
  const { kind, id, authhash, person } = props;
  const info = useWaiverChildInfo(kind, id, authhash, person.id);
  if (info.isPending) return <Working label="Loading the form…" />;
  if (info.isError) return <ErrorAlert message={errorText(info.error)} onRetry={() => void info.refetch()} />;
  return <WaiverForm {...props} info={info.data} />;
}

interface WaiverFormValues {
  first_name: string;
  last_name: string;
  /** YYYY-MM-DD, or '' while not picked. */
  dob: string;
  /** Typed text that is not a date we accept (the picker says so under the field). */
  dobText: string;
  medical: string;
  allergies: string;
  emergency_contact: string;
  photo_consent: boolean;
  signer_name: string;
  /** The PNG data URL of the signature, '' while the box is empty. */
  signature: string;
  agree: boolean;
}

function initialValues(info: WaiverChildInfo): WaiverFormValues {
  return {
    first_name: info.first_name,
    last_name: info.last_name,
    dob: info.dob,
    dobText: '',
    medical: '',
    allergies: '',
    emergency_contact: '',
    photo_consent: info.photo_consent,
    signer_name: info.parent_name,
    signature: '',
    agree: false,
  };
}

/** Fields every waiver form shows; the template's ask_fields add to them. */
const ALWAYS_SHOWN = ['first_name', 'last_name', 'dob', 'signer_name', 'signature', 'agree'];

const TEXT_ASK_FIELDS: Record<Exclude<AskField, 'photo_consent'>, { label: string; max: number }> = {
  medical: { label: 'Medical conditions', max: 1000 },
  allergies: { label: 'Allergies', max: 1000 },
  emergency_contact: { label: 'Emergency contact (name and phone)', max: 200 },
};

function WaiverForm({ kind, id, authhash, waiver, person, info }: FormProps & { info: WaiverChildInfo }) {
  const [values, setValues] = useState(() => initialValues(info));
  const formRef = useRef<HTMLFormElement>(null);
  const form = useFormPost(waiverSubmitRequest, (body) => submitWaiver(kind, authhash, body));
  const asks = (field: AskField) => waiver.ask_fields.includes(field);
  const errors = form.fieldErrors;
  const shown = new Set<string>([...ALWAYS_SHOWN, ...waiver.ask_fields]);
  const marksFields = Object.keys(errors).some((name) => shown.has(name));
  // SPEC.md point 8: a failure with nothing to mark on the form gets SPEC's message.
  const failed = form.failure !== undefined || (form.summary !== undefined && !marksFields);

  useEffect(() => {
    if (!form.accepted) return;
    const timer = window.setTimeout(reloadPage, WAIVER_RELOAD_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [form.accepted]);

  useEffect(() => {
    if (Object.keys(errors).length === 0) return;
    // The parent is at the bottom of a long form when they press the button: show what to fix.
    formRef.current
      ?.querySelector('[aria-invalid="true"], [data-field-error]')
      ?.scrollIntoView({ behavior: 'smooth', block: 'center' });
  }, [errors]);

  function change<K extends keyof WaiverFormValues>(name: K, value: WaiverFormValues[K]) {
    setValues((previous) => ({ ...previous, [name]: value }));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    form.submit({
      id,
      child_id: person.id,
      first_name: values.first_name,
      last_name: values.last_name,
      dob: values.dob,
      // Only what the parent was asked is sent; the rest take the schema's defaults.
      medical: asks('medical') ? values.medical : undefined,
      allergies: asks('allergies') ? values.allergies : undefined,
      emergency_contact: asks('emergency_contact') ? values.emergency_contact : undefined,
      photo_consent: asks('photo_consent') ? values.photo_consent : undefined,
      signer_name: values.signer_name,
      signature: values.signature,
      agree: values.agree,
    });
  }

  if (form.accepted) {
    return (
      <Alert color="teal" role="status">
        {waiverMessages.signed}
      </Alert>
    );
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate>
      <Stack gap="lg">
        <ScrollArea.Autosize
          mah={400}
          type="auto"
          offsetScrollbars="present"
          // A box that scrolls is reached with the keyboard too (Tab, then the arrow keys).
          viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': waiver.title }}
        >
          <Paper withBorder p="md" radius="md" bg="gray.0">
            <Title order={3} size="h4" mb="xs">
              {waiver.title}
            </Title>
            <ServerHtml html={waiver.body} />
          </Paper>
        </ScrollArea.Autosize>

        <Stack gap="sm">
          <Title order={3} size="h5">
            {kind === 'party' ? 'Guest details' : 'Child details'}
          </Title>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput
              label="First name"
              withAsterisk
              value={values.first_name}
              onChange={(event) => change('first_name', event.currentTarget.value)}
              maxLength={80}
              autoComplete="off"
              error={errors.first_name}
            />
            <TextInput
              label="Last name"
              withAsterisk
              value={values.last_name}
              onChange={(event) => change('last_name', event.currentTarget.value)}
              maxLength={80}
              autoComplete="off"
              error={errors.last_name}
            />
          </SimpleGrid>
          <DateOfBirthInput
            dob={values.dob}
            dobText={values.dobText}
            onChange={(value) => setValues((previous) => ({ ...previous, ...value }))}
            error={errors.dob}
          />
          {(['medical', 'allergies', 'emergency_contact'] as const)
            .filter(asks)
            .map((field) =>
              field === 'emergency_contact' ? (
                <TextInput
                  key={field}
                  label={TEXT_ASK_FIELDS[field].label}
                  value={values[field]}
                  onChange={(event) => change(field, event.currentTarget.value)}
                  maxLength={TEXT_ASK_FIELDS[field].max}
                  error={errors[field]}
                />
              ) : (
                <Textarea
                  key={field}
                  label={TEXT_ASK_FIELDS[field].label}
                  autosize
                  minRows={2}
                  maxRows={6}
                  value={values[field]}
                  onChange={(event) => change(field, event.currentTarget.value)}
                  maxLength={TEXT_ASK_FIELDS[field].max}
                  error={errors[field]}
                />
              ),
            )}
          {asks('photo_consent') ? (
            <Checkbox
              label="I consent to photos of my child being taken"
              checked={values.photo_consent}
              onChange={(event) => change('photo_consent', event.currentTarget.checked)}
              error={errors.photo_consent}
            />
          ) : null}
        </Stack>

        <Stack gap="sm">
          <Title order={3} size="h5">
            Parent or guardian
          </Title>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput
              label="Parent or guardian's full name"
              withAsterisk
              value={values.signer_name}
              onChange={(event) => change('signer_name', event.currentTarget.value)}
              maxLength={120}
              autoComplete="name"
              error={errors.signer_name}
            />
            <TextInput label="Date" value={displayDate(localToday())} readOnly variant="filled" />
          </SimpleGrid>
          {/* A drawing has no input to carry aria-invalid; this marks it for the scroll to the first error. */}
          <Box data-field-error={errors.signature ? true : undefined}>
            <SignaturePad
              onChange={(signature) => change('signature', signature ?? '')}
              error={errors.signature}
              disabled={form.pending}
            />
          </Box>
          <Checkbox
            label="I have read and agree to this waiver"
            checked={values.agree}
            onChange={(event) => change('agree', event.currentTarget.checked)}
            error={errors.agree}
          />
        </Stack>

        {failed ? (
          <Alert color="red" role="alert">
            <Text size="sm">{messages.waiverFailed}</Text>
            {form.summary ? (
              <Text size="sm" mt={4} style={{ whiteSpace: 'pre-line' }} component="div">
                <RichTextView html={form.summary} />
              </Text>
            ) : null}
          </Alert>
        ) : (
          <FormAlerts summary={form.summary} />
        )}
        <Group justify="flex-end">
          <Button type="submit" size="md" loading={form.pending} w={{ base: '100%', xs: 'auto' }}>
            Sign waiver
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function Working({ label }: { label: string }) {
  return (
    <Group gap="sm" py="md" justify="center">
      <Loader size="sm" aria-hidden="true" />
      <Text c="dimmed" size="sm" role="status">
        {label}
      </Text>
    </Group>
  );
}

function ErrorAlert({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <Stack gap="sm">
      <Alert color="red" role="alert">
        {message}
      </Alert>
      {onRetry ? (
        <Group justify="flex-end">
          <Button variant="default" onClick={onRetry}>
            Try again
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}

function ProblemCard({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <Card>
      <ErrorAlert message={message} onRetry={onRetry} />
    </Card>
  );
}

/** The server's reason when it gave one; otherwise what went wrong with the request. */
function errorText(error: Error): string {
  if (error instanceof ApiError) return error.serverMessage ?? messages.communicationError;
  return error.message || messages.communicationError;
}

function fullName(person: { first_name: string; last_name: string }): string {
  return `${person.first_name} ${person.last_name}`.trim();
}

/** YYYY-MM-DD as DD/MM/YYYY (SPEC.md point 9). */
function displayDate(iso: string): string {
  const [year, month, day] = iso.split('-');
  return `${day}/${month}/${year}`;
}

/** When a waiver was signed, as the parent's calendar date. */
