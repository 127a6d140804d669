import {
  Alert,
  Anchor,
  Button,
  Card,
  Grid,
  Group,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import {
  type ContactResponse,
  type ConvertResponse,
  contactNoteRequest,
  convertRequest,
} from '@tumble/contracts/crm';
import { messages } from '@tumble/contracts/messages';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/client';
import { FormAlerts } from '../../components/form-alerts';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { useFormPost } from '../../components/use-form-post';
import { formatDate } from '../booking/booking-format';
import { ContactForm, valuesOf } from './contact-form';
import { StageBadge } from './contacts-page';
import {
  addNote,
  convertContact,
  createContact,
  linkContact,
  updateContact,
  useContact,
  useCrmSettings,
} from './crm-api';

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-AU', { dateStyle: 'medium', timeStyle: 'short' });

/** /admin/contacts/new: staff add a lead. */
export function NewContactPage() {
  // Everyone who manages contacts (classes.write) also reads the settings (settings.read): the same roles.
  const settings = useCrmSettings().data;
  const navigate = useNavigate();
  const client = useQueryClient();
  if (!settings) return <PageLoader />;
  return (
    <Stack gap="md" maw={760}>
      <PageTitle title="Add a lead" description="Someone who asked about classes: a family to follow up." />
      <Card withBorder>
        <ContactForm
          initial={valuesOf(null, {
            source: settings.sources[0] ?? '',
            stage: settings.stages.find((s) => s.kind === 'open')?.name ?? '',
          })}
          sources={settings.sources}
          stages={settings.stages}
          submitLabel="Add lead"
          withNote
          post={createContact}
          onAccepted={(response) => {
            void client.invalidateQueries({ queryKey: ['admin', 'contacts'] });
            navigate(response.redirect ?? '/admin/contacts');
          }}
          onCancel={() => navigate('/admin/contacts')}
        />
      </Card>
    </Stack>
  );
}

function Notes({ id, notes }: { id: number; notes: ContactResponse['notes'] }) {
  const client = useQueryClient();
  const [body, setBody] = useState('');
  const form = useFormPost(contactNoteRequest, (b) => addNote(id, b), {
    onAccepted: () => {
      setBody('');
      void client.invalidateQueries({ queryKey: ['admin', 'contacts'] });
    },
  });
  return (
    <Card withBorder>
      <Stack gap="sm">
        <Title order={2} size="h4">
          Notes
        </Title>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            form.submit({ body });
          }}
        >
          <Stack gap="xs">
            <FormAlerts failure={form.failure} />
            <Textarea
              aria-label="New note"
              placeholder="Called, left a message…"
              autosize
              minRows={2}
              value={body}
              onChange={(e) => setBody(e.currentTarget.value)}
              error={form.fieldErrors.body}
            />
            <Group justify="flex-end">
              <Button type="submit" size="xs" loading={form.pending}>
                Add note
              </Button>
            </Group>
          </Stack>
        </form>
        {notes.length === 0 ? (
          <Text c="dimmed" size="sm">
            No notes yet.
          </Text>
        ) : (
          <Stack gap="xs" data-testid="contact-notes">
            {notes.map((n) => (
              <Card key={n.id} padding="xs" bg="gray.0">
                <Text size="xs" c="dimmed">
                  {when(n.created_at)} · {n.author}
                </Text>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  {n.body}
                </Text>
              </Card>
            ))}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}

interface ConvertChild {
  first_name: string;
  last_name: string;
  dob: string;
}

/** One action: the family account (invited by mail) with its children; or link to the family the email already has. */
function Convert({ data, onDone }: { data: ContactResponse; onDone: () => void }) {
  const { contact } = data;
  const client = useQueryClient();
  const surname = contact.full_name.trim().split(/\s+/).slice(1).join(' ');
  const [rows, setRows] = useState<ConvertChild[]>(() =>
    contact.children.map((c) => ({ first_name: c.name, last_name: surname, dob: c.dob ?? '' })),
  );
  const [answer, setAnswer] = useState<ConvertResponse | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  async function run(action: () => Promise<ConvertResponse>) {
    setPending(true);
    setProblem(null);
    try {
      const result = await action();
      setAnswer(result);
      if (result.valid) {
        onDone();
        await client.invalidateQueries({ queryKey: ['admin', 'contacts'] });
      }
    } catch (error) {
      setProblem(
        error instanceof ApiError
          ? (error.serverMessage ?? messages.communicationError)
          : messages.communicationError,
      );
    } finally {
      setPending(false);
    }
  }
  function convert() {
    const parsed = convertRequest.safeParse({ children: rows });
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? 'Check the children.');
      return;
    }
    void run(() => convertContact(contact.id, parsed.data));
  }
  const set = (index: number, change: Partial<ConvertChild>) =>
    setRows((r) => r.map((row, i) => (i === index ? { ...row, ...change } : row)));
  return (
    <Card withBorder>
      <Stack gap="sm">
        <Title order={2} size="h4">
          Convert to a family
        </Title>
        <Text size="sm" c="dimmed">
          Makes the family account with these children and mails {contact.email ?? 'the parent'} an invitation
          to choose a password. The lead moves to the won stage.
        </Text>
        {rows.map((row, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions, never reordered
          <SimpleGrid key={index} cols={{ base: 1, xs: 2 }} spacing="xs">
            <TextInput
              label="First name"
              value={row.first_name}
              onChange={(e) => set(index, { first_name: e.currentTarget.value })}
            />
            <TextInput
              label="Last name"
              value={row.last_name}
              onChange={(e) => set(index, { last_name: e.currentTarget.value })}
            />
            <TextInput
              label="Date of birth"
              type="date"
              value={row.dob}
              onChange={(e) => set(index, { dob: e.currentTarget.value })}
            />
          </SimpleGrid>
        ))}
        <Group gap="xs">
          <Button
            variant="light"
            size="xs"
            onClick={() => setRows((r) => [...r, { first_name: '', last_name: surname, dob: '' }])}
          >
            Add a child
          </Button>
          {rows.length > 0 ? (
            <Button variant="subtle" size="xs" color="gray" onClick={() => setRows((r) => r.slice(0, -1))}>
              Remove the last child
            </Button>
          ) : null}
        </Group>
        {problem ? (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        ) : null}
        {answer && !answer.valid ? (
          <Alert color="orange" role="alert">
            <Stack gap="xs">
              <Text size="sm">{answer.message}</Text>
              {answer.existing_family ? (
                <Group>
                  <Button
                    size="xs"
                    loading={pending}
                    onClick={() => void run(() => linkContact(contact.id, answer.existing_family!.parent_id))}
                  >
                    Link to {answer.existing_family.name}
                  </Button>
                </Group>
              ) : null}
            </Stack>
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button onClick={convert} loading={pending}>
            Convert to a family
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** /admin/contacts/:id: the lead's details (edit), its dated notes, and converting it to a family. */
export function ContactPage() {
  const id = Number(useParams().id);
  const contact = useContact(id);
  const client = useQueryClient();
  const [saved, setSaved] = useState<string | null>(null);
  if (contact.isError) return <Alert color="red">That contact could not be found.</Alert>;
  if (!contact.data) return <PageLoader />;
  const data = contact.data;
  const c = data.contact;
  return (
    <Stack gap="md">
      <PageTitle
        title={c.full_name}
        description={[c.source, c.interest, `added ${formatDate(c.created_at.slice(0, 10))}`]
          .filter(Boolean)
          .join(' · ')}
        actions={
          <Group gap="xs">
            <StageBadge contact={c} />
            <Button component={Link} to="/admin/contacts" variant="default">
              All contacts
            </Button>
          </Group>
        }
      />
      {c.parent_id ? (
        <Alert color="green" data-testid="converted">
          This lead is the family of{' '}
          <Anchor component={Link} to={`/admin/parents/${c.parent_id}/family-account`}>
            {c.family_name}
          </Anchor>
          {c.converted_at ? ` since ${formatDate(c.converted_at.slice(0, 10))}` : ''}.
        </Alert>
      ) : null}
      {saved ? (
        <Alert color="green" withCloseButton onClose={() => setSaved(null)}>
          {saved}
        </Alert>
      ) : null}
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Card withBorder>
            <ContactForm
              // A fresh form after each save or conversion (the stage may have moved).
              key={`${c.stage}-${c.parent_id ?? ''}`}
              initial={valuesOf(c, { source: '', stage: '' })}
              sources={data.sources}
              stages={data.stages}
              submitLabel="Save"
              withNote={false}
              post={(body) => updateContact(id, body)}
              onAccepted={(response) => {
                setSaved(response.info?.message ?? 'Saved.');
                void client.invalidateQueries({ queryKey: ['admin', 'contacts'] });
              }}
            />
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="md">
            {c.parent_id ? null : <Convert data={data} onDone={() => setSaved(null)} />}
            <Notes id={id} notes={data.notes} />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
