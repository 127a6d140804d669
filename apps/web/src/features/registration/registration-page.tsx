import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Card,
  Checkbox,
  Grid,
  Group,
  NativeSelect,
  Paper,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { childrenErrors } from '@tumble/contracts/booking';
import { joinWaitlistResponse } from '@tumble/contracts/class-waitlist';
import { messages } from '@tumble/contracts/messages';
import type {
  EnrolmentQuoteRequest,
  FinderClass,
  FormQuestionView,
  RegistrationFormResponse,
} from '@tumble/contracts/registration';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { type ParentChild, useParentChildren } from '../../api/children';
import { ApiError, api } from '../../api/client';
import { useAuthToken } from '../../api/use-session';
import { BookingHeader } from '../../components/booking-header';
import { DateOfBirthInput } from '../../components/date-of-birth-input';
import { ParentsOnly, scrollToTop } from '../../components/parents-only';
import { PriceLines } from '../../components/price-lines';
import { ServerHtml } from '../../components/server-html';
import { bootstrappedRegistrationForm, PendingPage } from '../../components/server-shell';
import { studentLoginPath } from '../../components/student-login-link';
import { formatDate, formatMoney } from '../booking/booking-format';
import { CheckoutLayout } from '../checkout/checkout-layout';
import { type AppliedCodes, NO_CODES } from '../checkout/discount-codes';
import { NewChildFields } from '../checkout/new-child-fields';
import { useCardPayment } from '../checkout/use-card-payment';
import { EnquireButton } from '../crm/enquiry-form';
import { EnrolmentQueueGate } from './queue-gate';
import {
  type ChosenClass,
  clearVisitorChoices,
  loadVisitorChoices,
  postEnrolmentCheckout,
  saveVisitorChoices,
  useClassFinder,
  useQuote,
  useRegistrationForm,
  type VisitorChild,
} from './registration-api';
import { RegistrationConfirmation } from './registration-confirmation';

/**
 * /registration/?f=<form key>&authhash (issue 14). A visitor (not signed in) gives each child's date
 * of birth and finds the classes for that age with live places and prices; paying or joining a
 * waitlist asks them to sign in (or sign up) and brings them back with their choices. A signed-in
 * parent picks or adds children, chooses a trial or a full enrolment, sees the server's price,
 * answers the form's questions, accepts the terms and pays by card. `status=true`: back from paying
 * (`purchase`: its reference, for the confirmation).
 */
export function RegistrationPage() {
  const token = useAuthToken();
  const [params] = useSearchParams();
  const authhash = params.get('authhash') ?? '';
  const f = params.get('f') ?? '';
  const paid = params.get('status') === 'true';
  const visitor = !token && !paid;
  useEffect(() => {
    // Sign-in and its redirect are the company's (ParentsOnly does this once signed in).
    if (visitor && authhash) api.setAuthHash(authhash);
  }, [visitor, authhash]);
  // Back from paying a form embedded in a provider's website: this full page has not the frame's
  // sign-in (the browser keeps a frame's storage apart), and the confirmation needs none.
  if (!token && paid) return <RegistrationConfirmation f={f} authhash={authhash} />;
  if (visitor)
    return (
      <EnrolmentQueueGate formKey={f} authhash={authhash}>
        {(queueToken) => (
          <RegistrationLoader f={f} authhash={authhash} queueToken={queueToken} signedIn={false} />
        )}
      </EnrolmentQueueGate>
    );
  return (
    <ParentsOnly>
      {(authhash, params) => {
        const f = params.get('f') ?? '';
        if (params.get('status') === 'true') return <RegistrationConfirmation f={f} authhash={authhash} />;
        return (
          <EnrolmentQueueGate formKey={f} authhash={authhash}>
            {(queueToken) => (
              <RegistrationLoader f={f} authhash={authhash} queueToken={queueToken} signedIn />
            )}
          </EnrolmentQueueGate>
        );
      }}
    </ParentsOnly>
  );
}

function RegistrationLoader({
  f,
  authhash,
  queueToken,
  signedIn,
}: {
  f: string;
  authhash: string;
  queueToken: string | null;
  signedIn: boolean;
}) {
  const form = useRegistrationForm(f, authhash);
  const children = useParentChildren({ enabled: signedIn });
  useDocumentTitle(form.data ? form.data.form.name : 'Registration');
  if (form.isPending || (signedIn && children.isPending))
    return <PendingPage drawnByServer={Boolean(bootstrappedRegistrationForm(f, authhash))} />;
  if (form.data && !signedIn) return <VisitorForm authhash={authhash} page={form.data} />;
  if (form.error || children.error || !form.data || !children.data) {
    const failure = form.error ?? children.error;
    return (
      <Card maw={560} mx="auto">
        <Alert color="red" role="alert">
          {failure instanceof ApiError
            ? (failure.serverMessage ?? messages.formLoadFailed)
            : messages.formLoadFailed}
        </Alert>
      </Card>
    );
  }
  return (
    <RegistrationForm authhash={authhash} page={form.data} existing={children.data} queueToken={queueToken} />
  );
}

const NEW_CHILD = 'new';

type Pick = ChosenClass;

interface ChildRow {
  choice: string;
  first_name: string;
  last_name: string;
  dob: string;
  dobText: string;
  consent: boolean;
  picks: Pick[];
  answers: Record<string, string>;
}

const emptyRow = (choice: string): ChildRow => ({
  choice,
  first_name: '',
  last_name: '',
  dob: '',
  dobText: '',
  consent: false,
  picks: [],
  answers: {},
});

const rowName = (row: ChildRow, existing: ParentChild[], index: number) =>
  row.choice === NEW_CHILD
    ? row.first_name || `Child ${index + 1}`
    : (existing.find((c) => String(c.id) === row.choice)?.first_name ?? `Child ${index + 1}`);

const rowDob = (row: ChildRow, existing: ParentChild[]) =>
  row.choice === NEW_CHILD
    ? /^\d{4}-\d{2}-\d{2}$/.test(row.dob)
      ? row.dob
      : null
    : (existing.find((c) => String(c.id) === row.choice)?.dob ?? null);

/** The rows with a class chosen, as the quote and the checkout take them. */
function selectionOf(
  f: string,
  rows: ChildRow[],
  applied: AppliedCodes,
  queueToken: string | null,
): EnrolmentQuoteRequest | null {
  const chosen = rows.filter((r) => r.picks.length > 0);
  if (chosen.length === 0) return null;
  return {
    f,
    children: chosen.map((r) =>
      r.choice === NEW_CHILD
        ? {
            first_name: r.first_name.trim(),
            last_name: r.last_name.trim(),
            dob: r.dob,
            consent: r.consent ? 1 : 0,
          }
        : { id: Number(r.choice), first_name: '', last_name: '', dob: '', consent: 0 },
    ),
    choices: chosen.flatMap((r, child) =>
      r.picks.map((p) => ({ child, term_class_id: p.termClassId, kind: p.kind, session_id: p.sessionId })),
    ),
    answers: chosen.map((r) => r.answers),
    coupon_code: applied.coupon,
    nsw_coupon_code: applied.voucher,
    ...(queueToken ? { queue_token: queueToken } : {}),
  };
}

interface RegistrationFormProps {
  authhash: string;
  page: RegistrationFormResponse;
  existing: ParentChild[];
  queueToken: string | null;
}

function RegistrationForm({ authhash, page, existing, queueToken }: RegistrationFormProps) {
  const navigate = useNavigate();
  const { form, company } = page;
  const [rows, setRows] = useState<ChildRow[]>(() => {
    const kept = loadVisitorChoices(form.key, authhash);
    return kept && kept.length > 0
      ? restoredRows(kept, existing)
      : [emptyRow(existing[0] ? String(existing[0].id) : NEW_CHILD)];
  });
  // What was chosen before signing in is now on the page (read once above).
  useEffect(() => clearVisitorChoices(), []);
  const [applied, setApplied] = useState<AppliedCodes>(NO_CODES);
  const [accepted, setAccepted] = useState(false);
  const selection = useMemo(
    () => selectionOf(form.key, rows, applied, queueToken),
    [form.key, rows, applied, queueToken],
  );
  const quote = useQuote(authhash, selection);
  const pricing = quote.data;

  const update = (index: number, change: Partial<ChildRow>) =>
    setRows((previous) => previous.map((row, i) => (i === index ? { ...row, ...change } : row)));

  const finish = useCallback(() => {
    navigate(`/registration/?${new URLSearchParams({ f: form.key, authhash, status: 'true' })}`);
  }, [authhash, form.key, navigate]);

  const problems: string[] = [];
  if (!selection) problems.push('Please choose a class.');
  else {
    problems.push(
      ...childrenErrors(
        selection.children.map((c) => ({ ...c, insurance_ids: [] })),
        false,
        { insuranceOffered: false },
      ),
    );
    rows.forEach((row, i) => {
      if (row.picks.length === 0) return;
      for (const q of form.questions)
        if (q.required && !row.answers[q.key]?.trim())
          problems.push(`Please answer “${q.label}” for ${rowName(row, existing, i)}.`);
    });
  }
  if (!accepted) problems.push(messages.acceptTerms);

  const step = useCardPayment({
    problems,
    finish,
    cancelledNotice: 'Payment cancelled. Your places are no longer held; confirm again to pay.',
    send: () =>
      selection && pricing
        ? postEnrolmentCheckout(authhash, { ...selection, accept_terms: true, amount: pricing.amount_due })
        : null,
  });

  const used = new Set(rows.map((r) => r.choice).filter((c) => c !== NEW_CHILD));
  const nextChoice = existing.find((c) => !used.has(String(c.id)));

  return (
    <CheckoutLayout
      header={<BookingHeader company={company} />}
      title={form.name}
      change={{ to: '/admin/students/registrations', label: 'My enrolments' }}
      step={step}
      onComplete={finish}
      childrenTitle="Children and classes"
      childrenForm={
        <Stack gap="md">
          {form.intro ? <ServerHtml html={form.intro} /> : null}
          {rows.map((row, index) => (
            <ChildBlock
              // Rows are positions (child 1, child 2…); they are never reordered.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              key={index}
              index={index}
              row={row}
              rows={rows}
              existing={existing}
              page={page}
              authhash={authhash}
              onChange={(change) => update(index, change)}
              onRemove={rows.length > 1 ? () => setRows((r) => r.filter((_, i) => i !== index)) : null}
              onSignIn={null}
            />
          ))}
          <Button
            variant="light"
            onClick={() => setRows((r) => [...r, emptyRow(nextChoice ? String(nextChoice.id) : NEW_CHILD)])}
          >
            Add another child
          </Button>
        </Stack>
      }
      discounts={{ applied, onApply: setApplied, pricing }}
      terms={{ loading: false, html: form.payment_terms, accepted, onAcceptedChange: setAccepted }}
      summaryTitle="Enrolment summary"
      summary={
        <>
          <Stack gap={4} data-testid="enrolment-summary">
            {rows.flatMap((row, i) =>
              row.picks.map((p) => (
                // A child picks a class once: child position and class name the line.
                // biome-ignore lint/suspicious/noArrayIndexKey: see above
                <Text key={`${i}-${p.termClassId}`} size="sm">
                  <b>{rowName(row, existing, i)}</b>: {p.label}
                </Text>
              )),
            )}
            {selection ? null : (
              <Text size="sm" c="dimmed">
                Choose a class for a child to see the price.
              </Text>
            )}
          </Stack>
          {selection ? <PriceLines pricing={pricing} loading={quote.loading} /> : null}
        </>
      }
      priceError={
        quote.error
          ? (quote.error instanceof ApiError && quote.error.serverMessage) || messages.somethingWrongCalendar
          : null
      }
      confirmLabel="Confirm Payment"
      confirmDisabled={quote.loading || !pricing}
    />
  );
}

/**
 * The visitor's choices after signing in: a child of the family with that date of birth takes the
 * row (the parent may pick another), else a new child with the date of birth filled in.
 */
function restoredRows(kept: VisitorChild[], existing: ParentChild[]): ChildRow[] {
  const used = new Set<number>();
  return kept.map((child) => {
    const match = existing.find((c) => c.dob === child.dob && !used.has(c.id));
    if (!match) return { ...emptyRow(NEW_CHILD), dob: child.dob, dobText: child.dobText, picks: child.picks };
    used.add(match.id);
    return { ...emptyRow(String(match.id)), picks: child.picks };
  });
}

/**
 * The page before signing in: each child's date of birth, the classes for that age with live
 * places and prices, and the choices' prices. Paying (or joining a waitlist) keeps the choices in
 * this tab and goes to the company's parent sign-in (or sign-up), which comes back here.
 */
function VisitorForm({ authhash, page }: { authhash: string; page: RegistrationFormResponse }) {
  const navigate = useNavigate();
  const location = useLocation();
  const { form, company } = page;
  const [rows, setRows] = useState<ChildRow[]>(() => {
    const kept = loadVisitorChoices(form.key, authhash);
    return kept && kept.length > 0 ? restoredRows(kept, []) : [emptyRow(NEW_CHILD)];
  });
  const [problem, setProblem] = useState<string | null>(null);
  const update = (index: number, change: Partial<ChildRow>) => {
    setProblem(null);
    setRows((previous) => previous.map((row, i) => (i === index ? { ...row, ...change } : row)));
  };
  const picks = rows.flatMap((row, i) => row.picks.map((p) => ({ ...p, child: rowName(row, [], i) })));
  const total = picks.reduce((sum, p) => sum + p.price, 0);

  function signIn(paying: boolean) {
    if (paying && picks.length === 0) {
      setProblem('Please choose a class.');
      scrollToTop();
      return;
    }
    saveVisitorChoices(
      form.key,
      authhash,
      rows.map((r) => ({ dob: r.dob, dobText: r.dobText, picks: r.picks })),
    );
    navigate(studentLoginPath(authhash, location.pathname + location.search));
  }

  return (
    <Box>
      <BookingHeader company={company} />
      <Title order={1} fz={{ base: 24, sm: 30 }} mb="md">
        {form.name}
      </Title>
      {problem ? (
        <Alert color="red" role="alert" mb="md">
          {problem}
        </Alert>
      ) : null}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Card>
            <Stack gap="md">
              <Title order={2} size="h4">
                Find a class
              </Title>
              {form.intro ? <ServerHtml html={form.intro} /> : null}
              {rows.map((row, index) => (
                <ChildBlock
                  // Rows are positions (child 1, child 2…); they are never reordered.
                  // biome-ignore lint/suspicious/noArrayIndexKey: see above
                  key={index}
                  index={index}
                  row={row}
                  rows={rows}
                  existing={[]}
                  page={page}
                  authhash={authhash}
                  onChange={(change) => update(index, change)}
                  onRemove={rows.length > 1 ? () => setRows((r) => r.filter((_, i) => i !== index)) : null}
                  onSignIn={() => signIn(false)}
                />
              ))}
              <Button variant="light" onClick={() => setRows((r) => [...r, emptyRow(NEW_CHILD)])}>
                Add another child
              </Button>
            </Stack>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Card pos={{ md: 'sticky' }} top={{ md: 16 }} component="section" aria-label="Enrolment summary">
            <Stack gap="md">
              <Title order={2} size="h4">
                Enrolment summary
              </Title>
              <Stack gap={4} data-testid="enrolment-summary">
                {picks.map((p) => (
                  <Group
                    key={`${p.child}-${p.termClassId}`}
                    justify="space-between"
                    wrap="nowrap"
                    align="flex-start"
                  >
                    <Text size="sm">
                      <b>{p.child}</b>: {p.label}
                    </Text>
                    <Text size="sm" style={{ flexShrink: 0 }}>
                      {formatMoney(p.price, company.currency)}
                    </Text>
                  </Group>
                ))}
                {picks.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    Give a child’s date of birth and choose a class to see the price.
                  </Text>
                ) : (
                  <Group justify="space-between" fw={700}>
                    <Text fw={700}>Before discounts</Text>
                    <Text fw={700} data-testid="visitor-total">
                      {formatMoney(total, company.currency)}
                    </Text>
                  </Group>
                )}
              </Stack>
              <Text size="sm" c="dimmed">
                Sign in or create an account to pay: family discounts and codes are applied then, and your
                choices are kept.
              </Text>
              <Button size="md" fullWidth onClick={() => signIn(true)}>
                Sign in to pay
              </Button>
              <EnquireButton authhash={authhash} formKey={form.key} />
            </Stack>
          </Card>
        </Grid.Col>
      </Grid>
    </Box>
  );
}

interface ChildBlockProps {
  index: number;
  row: ChildRow;
  rows: ChildRow[];
  existing: ParentChild[];
  page: RegistrationFormResponse;
  authhash: string;
  onChange: (change: Partial<ChildRow>) => void;
  onRemove: (() => void) | null;
  /** A visitor's page: only the date of birth is asked; paying or waiting signs in first. */
  onSignIn: (() => void) | null;
}

/** One child: who, the classes for their age, and the form's questions. */
function ChildBlock(props: ChildBlockProps) {
  const { index, row, rows, existing, page, authhash, onChange, onRemove, onSignIn } = props;
  const position = index + 1;
  const taken = new Set(rows.filter((_, i) => i !== index).map((r) => r.choice));
  const options = [
    ...existing
      .filter((c) => !taken.has(String(c.id)))
      .map((c) => ({ value: String(c.id), label: `${c.first_name} ${c.last_name}` })),
    { value: NEW_CHILD, label: 'New child' },
  ];
  const dob = rowDob(row, existing);
  const name = rowName(row, existing, index);
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label={`Child ${position}`}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Text fw={700}>{`Child ${position}`}</Text>
          {onRemove ? (
            <Anchor component="button" type="button" size="sm" onClick={onRemove}>
              Remove
            </Anchor>
          ) : null}
        </Group>
        {onSignIn ? (
          <DateOfBirthInput
            label="Child’s date of birth"
            dob={row.dob}
            dobText={row.dobText}
            // A new age finds other classes: the choices of the old one go.
            onChange={(value) => onChange({ ...value, picks: value.dob === row.dob ? row.picks : [] })}
          />
        ) : (
          <NativeSelect
            label="Child"
            data={options}
            value={row.choice}
            onChange={(event) => onChange({ ...emptyRow(event.currentTarget.value) })}
          />
        )}
        {row.choice === NEW_CHILD && !onSignIn ? (
          <>
            <NewChildFields value={row} onChange={(change) => onChange(change)} />
            <Checkbox
              label="I consent to photos of this child being taken and shared by the provider"
              checked={row.consent}
              onChange={(event) => onChange({ consent: event.currentTarget.checked })}
            />
          </>
        ) : null}
        {dob ? (
          <ClassFinder
            page={page}
            authhash={authhash}
            dob={dob}
            childName={name}
            childId={row.choice === NEW_CHILD ? null : Number(row.choice)}
            picks={row.picks}
            onPicks={(picks) => onChange({ picks })}
            onSignIn={onSignIn}
          />
        ) : (
          <Text size="sm" c="dimmed">
            Give the date of birth to see the classes for this child’s age.
          </Text>
        )}
        {row.picks.length > 0 && page.form.questions.length > 0 && !onSignIn ? (
          <Questions
            questions={page.form.questions}
            answers={row.answers}
            onChange={(answers) => onChange({ answers })}
          />
        ) : null}
      </Stack>
    </Paper>
  );
}

interface ClassFinderProps {
  page: RegistrationFormResponse;
  authhash: string;
  dob: string;
  childName: string;
  childId: number | null;
  picks: Pick[];
  onPicks: (picks: Pick[]) => void;
  /** A visitor joins a waitlist after signing in. */
  onSignIn: (() => void) | null;
}

/** The classes for a child's age: day, time, venue, coach, level, live places left and the price. */
function ClassFinder(props: ClassFinderProps) {
  const { page, authhash, dob, childName, childId, picks, onPicks, onSignIn } = props;
  const finder = useClassFinder(page.form.key, authhash, dob);
  const currency = page.company.currency;
  if (finder.isPending) return <Text size="sm">Finding classes…</Text>;
  if (finder.error || !finder.data)
    return (
      <Alert color="red" role="alert">
        {messages.formLoadFailed}
      </Alert>
    );
  const classes = finder.data.classes;
  if (classes.length === 0)
    return (
      <Text size="sm" c="dimmed">
        There are no classes for {childName}’s age on this form.
      </Text>
    );
  const toggle = (cls: FinderClass, kind: 'enrolled' | 'trial') => {
    const has = picks.some((p) => p.termClassId === cls.id);
    const rest = picks.filter((p) => p.termClassId !== cls.id);
    const already = picks.find((p) => p.termClassId === cls.id)?.kind === kind;
    if (has && already) return onPicks(rest);
    const label =
      kind === 'trial' && cls.trial
        ? `${cls.name}, trial on ${formatDate(cls.trial.date)}`
        : `${cls.name}, ${cls.sessions_left} sessions from ${formatDate(cls.first_date ?? '')}`;
    const trial = kind === 'trial' ? cls.trial : null;
    onPicks([
      ...rest,
      {
        termClassId: cls.id,
        kind,
        ...(trial ? { sessionId: trial.session_id } : {}),
        label,
        price: trial ? trial.price : cls.price,
      },
    ]);
  };
  return (
    <Stack gap="xs" role="list" aria-label={`Classes for ${childName}`}>
      <Text fw={600} size="sm">
        Classes for {childName}
      </Text>
      {classes.map((cls) => {
        const pick = picks.find((p) => p.termClassId === cls.id);
        const full = cls.places_left === 0;
        return (
          <Card key={cls.id} withBorder padding="sm" role="listitem" aria-label={cls.name}>
            <Stack gap={6}>
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <div>
                  <Text fw={700}>{cls.class_type}</Text>
                  <Text size="sm">
                    {cls.day} {cls.start_time}–{cls.end_time}
                  </Text>
                </div>
                <Badge
                  color={full ? 'red' : cls.places_left <= 3 ? 'orange' : 'teal'}
                  variant="light"
                  style={{ flexShrink: 0 }}
                >
                  {full ? 'Full' : `${cls.places_left} ${cls.places_left === 1 ? 'place' : 'places'} left`}
                </Badge>
              </Group>
              <Text size="sm" c="dimmed">
                {[
                  cls.venue,
                  cls.coach ? `Coach ${cls.coach}` : null,
                  cls.level ? `Level ${cls.level}` : null,
                  cls.term_name,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </Text>
              <Text size="sm">
                {formatMoney(cls.price, currency)} for {cls.sessions_left}{' '}
                {cls.sessions_left === 1 ? 'session' : 'sessions'}
                {cls.first_date ? ` from ${formatDate(cls.first_date)}` : ''}
              </Text>
              <Group gap="xs">
                <Button
                  size="xs"
                  variant={pick?.kind === 'enrolled' ? 'filled' : 'outline'}
                  disabled={full && pick?.kind !== 'enrolled'}
                  onClick={() => toggle(cls, 'enrolled')}
                  aria-pressed={pick?.kind === 'enrolled'}
                >
                  {pick?.kind === 'enrolled' ? 'Enrolled ✓' : 'Enrol'}
                </Button>
                {cls.trial ? (
                  <Button
                    size="xs"
                    variant={pick?.kind === 'trial' ? 'filled' : 'outline'}
                    onClick={() => toggle(cls, 'trial')}
                    aria-pressed={pick?.kind === 'trial'}
                  >
                    {pick?.kind === 'trial'
                      ? `Trial ${formatDate(cls.trial.date)} ✓`
                      : `Book a trial ${formatDate(cls.trial.date)} · ${formatMoney(cls.trial.price, currency)}`}
                  </Button>
                ) : null}
                {full && page.form.public_waitlist && onSignIn ? (
                  <Button size="xs" variant="light" onClick={onSignIn}>
                    Join the waitlist
                  </Button>
                ) : null}
                {full && page.form.public_waitlist && !onSignIn && childId !== null ? (
                  <WaitlistButton
                    f={page.form.key}
                    authhash={authhash}
                    termClassId={cls.id}
                    childId={childId}
                  />
                ) : null}
              </Group>
            </Stack>
          </Card>
        );
      })}
    </Stack>
  );
}

/** A full class: the family may wait for a place (the waitlist's own call). */
function WaitlistButton(props: { f: string; authhash: string; termClassId: number; childId: number }) {
  const [state, setState] = useState<{ pending: boolean; message: string | null }>({
    pending: false,
    message: null,
  });
  async function join() {
    setState({ pending: true, message: null });
    try {
      const answer = await api.post(
        '/api/v1/registration/waitlist',
        { f: props.f, term_class_id: props.termClassId, children: [props.childId], any_number: false },
        { query: { authhash: props.authhash }, schema: joinWaitlistResponse },
      );
      setState({ pending: false, message: answer.message });
    } catch (error) {
      setState({
        pending: false,
        message: (error instanceof ApiError && error.serverMessage) || messages.checkoutFailed,
      });
    }
  }
  if (state.message)
    return (
      <Text size="sm" role="status">
        {state.message}
      </Text>
    );
  return (
    <Button size="xs" variant="light" loading={state.pending} onClick={() => void join()}>
      Join the waitlist
    </Button>
  );
}

function Questions(props: {
  questions: FormQuestionView[];
  answers: Record<string, string>;
  onChange: (answers: Record<string, string>) => void;
}) {
  return (
    <Stack gap="xs">
      {props.questions.map((q) => (
        <Textarea
          key={q.key}
          label={q.label}
          withAsterisk={q.required}
          autosize
          minRows={1}
          maxLength={2000}
          value={props.answers[q.key] ?? ''}
          onChange={(event) => props.onChange({ ...props.answers, [q.key]: event.currentTarget.value })}
        />
      ))}
    </Stack>
  );
}
