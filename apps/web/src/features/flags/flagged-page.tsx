import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Group,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type AppliedFlag, applyFlagRequest } from '@tumble/contracts/flags';
import { useState } from 'react';
import { Link } from 'react-router';
import { FormAlerts } from '../../components/form-alerts';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { useFormPost } from '../../components/use-form-post';
import { applyFlag, useAppliedFlags, useFlagOptions, useRemoveFlag } from './flags-api';

/** The flag's colour as a small dot beside its name. */
export function FlagDot({ colour }: { colour: string }) {
  return (
    <Box
      component="span"
      aria-hidden
      w={10}
      h={10}
      style={{ borderRadius: '50%', display: 'inline-block', background: colour, flexShrink: 0 }}
    />
  );
}

/** One applied flag: name, who it is on, the note, who applied it and when; Remove. */
export function AppliedFlagCard({ flag }: { flag: AppliedFlag }) {
  const remove = useRemoveFlag();
  return (
    <Card withBorder padding="sm" component="section" aria-label={`${flag.name} on ${flag.target}`}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap={6} wrap="nowrap">
            <FlagDot colour={flag.colour} />
            <Text fw={700}>{flag.name}</Text>
            {flag.show_on_roll ? null : (
              <Badge size="xs" variant="light" color="gray">
                Not on the roll
              </Badge>
            )}
          </Group>
          <Text size="sm">{flag.target}</Text>
          {flag.note ? <Text size="sm">{flag.note}</Text> : null}
          <Text size="xs" c="dimmed">
            Applied by {flag.applied_by} on {new Date(flag.applied_at).toLocaleDateString()}
          </Text>
        </Stack>
        <Button
          size="xs"
          variant="subtle"
          color="red"
          loading={remove.isPending}
          onClick={() => remove.mutate(flag.id)}
          aria-label={`Remove ${flag.name} from ${flag.target}`}
        >
          Remove
        </Button>
      </Group>
    </Card>
  );
}

/** Apply a company flag to a child or a family, with an optional note. */
function ApplyFlagForm() {
  const options = useFlagOptions();
  const client = useQueryClient();
  const [on, setOn] = useState<'child' | 'family'>('child');
  const [flagId, setFlagId] = useState<string | null>(null);
  const [target, setTarget] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const form = useFormPost(applyFlagRequest, applyFlag, {
    onAccepted: () => {
      setTarget(null);
      setNote('');
      void client.invalidateQueries({ queryKey: ['admin', 'flagged'] });
    },
  });
  if (!options.data) return <PageLoader />;
  if (options.data.flags.length === 0) {
    return (
      <Alert color="blue">
        No flags yet. <Link to="/admin/flags/add">Add a flag</Link> (e.g. Anaphylaxis) first.
      </Alert>
    );
  }
  const targets = on === 'child' ? options.data.children : options.data.families;
  return (
    <Card withBorder padding="md">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          form.submit({
            flag_id: flagId ?? '',
            [on === 'child' ? 'child_id' : 'parent_id']: target ?? '',
            note,
          });
        }}
      >
        <Stack gap="sm">
          <Text fw={700}>Apply a flag</Text>
          <FormAlerts failure={form.failure} summary={form.summary} />
          {form.accepted?.info ? (
            <Alert color="green" role="status">
              {form.accepted.info.message}
            </Alert>
          ) : null}
          <Select
            label="Flag"
            data={options.data.flags}
            value={flagId}
            onChange={setFlagId}
            searchable
            required
            error={form.fieldErrors.flag_id}
          />
          <SegmentedControl
            aria-label="Apply to"
            value={on}
            onChange={(value) => {
              setOn(value as 'child' | 'family');
              setTarget(null);
            }}
            data={[
              { value: 'child', label: 'A child' },
              { value: 'family', label: 'A family' },
            ]}
          />
          <Select
            label={on === 'child' ? 'Child' : 'Family'}
            data={targets}
            value={target}
            onChange={setTarget}
            searchable
            required
            nothingFoundMessage="No match"
            error={form.fieldErrors.child_id ?? form.fieldErrors.parent_id}
          />
          <Textarea
            label="Note"
            description="Shown when staff or coaches hover or tap the flag on the roll."
            value={note}
            onChange={(event) => setNote(event.currentTarget.value)}
            autosize
            minRows={2}
            error={form.fieldErrors.note}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={form.pending}>
              Apply flag
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

/** /admin/flagged: the flags on children and families (SPEC flags). */
export function FlaggedPage() {
  const applied = useAppliedFlags();
  return (
    <Stack gap="md" maw={760}>
      <PageTitle
        title="Flagged children and families"
        description="Flags with “Show on the roll” appear next to the child on every roll; a family’s flag shows on each of its children."
        actions={
          <Button component={Link} to="/admin/flags" variant="default">
            Manage flags
          </Button>
        }
      />
      <ApplyFlagForm />
      {applied.data ? (
        applied.data.flags.length === 0 ? (
          <Text c="dimmed">No child or family is flagged yet.</Text>
        ) : (
          <Stack gap="xs">
            {applied.data.flags.map((flag) => (
              <AppliedFlagCard key={flag.id} flag={flag} />
            ))}
          </Stack>
        )
      ) : (
        <PageLoader />
      )}
    </Stack>
  );
}
