import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import {
  type CrmSettingsResponse,
  type CrmStage,
  crmSettingsRequest,
  ENQUIRY_SOURCE,
  STAGE_KINDS,
} from '@tumble/contracts/crm';
import { useState } from 'react';
import { FormAlerts } from '../../components/form-alerts';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { useFormPost } from '../../components/use-form-post';
import { saveCrmSettings, useCrmSettings } from './crm-api';

const KIND_LABELS: Record<CrmStage['kind'], string> = { open: 'Open', won: 'Won', lost: 'Lost' };

/** Moves item `index` of a list one place up (-1) or down (+1). */
function moved<T>(list: T[], index: number, by: -1 | 1): T[] {
  const to = index + by;
  if (to < 0 || to >= list.length) return list;
  const next = [...list];
  [next[index], next[to]] = [next[to]!, next[index]!];
  return next;
}

function OrderButtons(props: {
  label: string;
  index: number;
  count: number;
  move: (by: -1 | 1) => void;
  remove?: () => void;
}) {
  return (
    <Group gap={2} wrap="nowrap">
      <ActionIcon
        variant="subtle"
        aria-label={`Move ${props.label} up`}
        disabled={props.index === 0}
        onClick={() => props.move(-1)}
      >
        ↑
      </ActionIcon>
      <ActionIcon
        variant="subtle"
        aria-label={`Move ${props.label} down`}
        disabled={props.index === props.count - 1}
        onClick={() => props.move(1)}
      >
        ↓
      </ActionIcon>
      <ActionIcon
        variant="subtle"
        color="red"
        aria-label={`Remove ${props.label}`}
        disabled={!props.remove}
        onClick={props.remove}
      >
        ×
      </ActionIcon>
    </Group>
  );
}

function SettingsForm({ initial }: { initial: CrmSettingsResponse }) {
  const client = useQueryClient();
  const [sources, setSources] = useState(initial.sources);
  const [stages, setStages] = useState(initial.stages);
  const [saved, setSaved] = useState(false);
  const form = useFormPost(crmSettingsRequest, saveCrmSettings, {
    onAccepted: () => {
      setSaved(true);
      void client.invalidateQueries({ queryKey: ['admin'] });
    },
  });
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        setSaved(false);
        form.submit({ sources, stages });
      }}
    >
      <Stack gap="md">
        <FormAlerts failure={form.failure} summary={form.summary} />
        {saved ? <Alert color="green">The lead sources and stages are saved.</Alert> : null}
        {initial.saved ? null : (
          <Text size="sm" c="dimmed">
            These are the defaults; nothing is stored until you save.
          </Text>
        )}
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <Card withBorder>
            <Stack gap="xs">
              <Title order={2} size="h4">
                Lead sources
              </Title>
              <Text size="sm" c="dimmed">
                Where families hear of you. “{ENQUIRY_SOURCE}” is what the registration form’s Enquire button
                records.
              </Text>
              {form.fieldErrors.sources ? (
                <Text c="red" size="sm" role="alert">
                  {form.fieldErrors.sources}
                </Text>
              ) : null}
              {sources.map((source, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a row is its position while typing
                <Group key={index} gap="xs" wrap="nowrap">
                  <TextInput
                    aria-label={`Source ${index + 1}`}
                    value={source}
                    onChange={(e) => {
                      const value = e.currentTarget.value;
                      setSources((s) => s.map((x, i) => (i === index ? value : x)));
                    }}
                    style={{ flex: 1 }}
                  />
                  <OrderButtons
                    label={source || `source ${index + 1}`}
                    index={index}
                    count={sources.length}
                    move={(by) => setSources((s) => moved(s, index, by))}
                    remove={
                      source === ENQUIRY_SOURCE
                        ? undefined
                        : () => setSources((s) => s.filter((_, i) => i !== index))
                    }
                  />
                </Group>
              ))}
              <Group>
                <Button variant="light" size="xs" onClick={() => setSources((s) => [...s, ''])}>
                  Add a source
                </Button>
              </Group>
            </Stack>
          </Card>
          <Card withBorder>
            <Stack gap="xs">
              <Title order={2} size="h4">
                Stages
              </Title>
              <Text size="sm" c="dimmed">
                The steps a lead moves through, in order. Converting a lead to a family moves it to the Won
                stage.
              </Text>
              {form.fieldErrors.stages ? (
                <Text c="red" size="sm" role="alert">
                  {form.fieldErrors.stages}
                </Text>
              ) : null}
              {stages.map((stage, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a row is its position while typing
                <Group key={index} gap="xs" wrap="nowrap">
                  <TextInput
                    aria-label={`Stage ${index + 1}`}
                    value={stage.name}
                    onChange={(e) => {
                      const name = e.currentTarget.value;
                      setStages((s) => s.map((x, i) => (i === index ? { ...x, name } : x)));
                    }}
                    style={{ flex: 1 }}
                  />
                  <Select
                    aria-label={`Stage ${index + 1} kind`}
                    data={STAGE_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] }))}
                    value={stage.kind}
                    allowDeselect={false}
                    onChange={(kind) =>
                      setStages((s) =>
                        s.map((x, i) =>
                          i === index ? { ...x, kind: (kind ?? 'open') as CrmStage['kind'] } : x,
                        ),
                      )
                    }
                    w={{ base: 92, sm: 120 }}
                  />
                  <OrderButtons
                    label={stage.name || `stage ${index + 1}`}
                    index={index}
                    count={stages.length}
                    move={(by) => setStages((s) => moved(s, index, by))}
                    remove={() => setStages((s) => s.filter((_, i) => i !== index))}
                  />
                </Group>
              ))}
              <Group>
                <Button
                  variant="light"
                  size="xs"
                  onClick={() => setStages((s) => [...s, { name: '', kind: 'open' }])}
                >
                  Add a stage
                </Button>
              </Group>
            </Stack>
          </Card>
        </SimpleGrid>
        <Group justify="flex-end">
          <Button type="submit" loading={form.pending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** /admin/settings/crm (SPEC settings/crm): the company's lead sources and stages, in order. */
export function CrmSettingsPage() {
  const settings = useCrmSettings();
  return (
    <Stack gap="md" maw={1000}>
      <PageTitle title="CRM settings" description="Lead sources and stages for Contacts." />
      {settings.data ? <SettingsForm initial={settings.data} /> : <PageLoader />}
    </Stack>
  );
}
