import { Box, Button, Card, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { messages } from '@tumble/contracts/messages';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../api/client';
import { PencilIcon } from '../../components/icons';
import { PageLoader } from '../../components/page-loader';
import { useResourceRecord } from '../api/get-record';
import { FieldValue } from '../field-value';
import { isShown } from '../fields/form-values';
import { RecordSections } from '../record-sections';
import { ParentTabs, ResourceHeader, useCrumbs } from '../resource-header';
import { pageBase } from '../resource-ref';
import { canEditRows, ResourceScope, recordTitle, ScreenProblem, useResourceScope } from '../resource-scope';
import { useActionRunner } from '../use-action-runner';

function ViewScreen() {
  const { ref, meta, id } = useResourceScope();
  const navigate = useNavigate();
  const record = useResourceRecord(ref, id);
  const listPath = pageBase(ref);
  const runner = useActionRunner(ref, {
    onDone: (action, response) => {
      if (action.name !== 'delete') return;
      notifications.show({ color: 'teal', message: response.message });
      navigate(listPath);
    },
  });
  const title = recordTitle(meta, record.data) || meta.singular;
  const crumbs = useCrumbs({ label: title });

  if (record.isError) {
    const notFound = record.error instanceof ApiError && record.error.status === 404;
    return (
      <ScreenProblem
        title={meta.singular}
        message={
          notFound
            ? `This ${meta.singular.toLowerCase()} does not exist, or it was deleted.`
            : record.error instanceof ApiError
              ? (record.error.serverMessage ?? messages.communicationError)
              : messages.communicationError
        }
        back={listPath}
      />
    );
  }
  if (!record.data || id === null) return <PageLoader />;
  const row = record.data;
  const rowActions = meta.actions.filter((a) => a.selection !== 'none');

  return (
    <>
      <ResourceHeader
        title={title}
        crumbs={crumbs}
        actions={
          <>
            {canEditRows(meta) ? (
              <Button
                component={Link}
                to={`${listPath}/${id}/edit`}
                size="xs"
                leftSection={<PencilIcon size={14} />}
              >
                Edit
              </Button>
            ) : null}
            {rowActions.map((action) => (
              <Button
                key={action.name}
                size="xs"
                variant={action.name === 'delete' ? 'light' : 'default'}
                color={action.name === 'delete' ? 'red' : undefined}
                onClick={() => runner.run(action, [id], 'row')}
                disabled={runner.busy}
              >
                {action.label}
              </Button>
            ))}
          </>
        }
      />
      {meta.children.length > 0 ? (
        <ParentTabs base={`${pageBase(ref)}/${id}`} tabs={meta.children} active="details" />
      ) : null}
      {runner.feedbackAlert}
      <Card>
        <Stack gap="md" component="dl" m={0}>
          {meta.fields
            .filter((field) => !record.data || isShown(field, record.data))
            .map((field) => (
              // dt and dd are the row's own children (a dl allows one div around each pair, no
              // deeper): side by side where they fit, the value under its label on a phone.
              <Box key={field.name} style={{ display: 'flex', flexWrap: 'wrap', columnGap: 16, rowGap: 2 }}>
                <Text component="dt" size="sm" fw={600} c="dimmed" style={{ flex: '1 1 180px' }}>
                  {field.label}
                </Text>
                <Text
                  component="dd"
                  m={0}
                  size="sm"
                  style={{ flex: '2 1 320px', minWidth: 0, overflowWrap: 'anywhere' }}
                  data-field={field.name}
                >
                  <FieldValue field={field} value={row[field.name]} labels={row._labels} mode="view" />
                </Text>
              </Box>
            ))}
        </Stack>
      </Card>
      <RecordSections resourceRef={ref} meta={meta} id={id} />
      {runner.confirmDialog}
    </>
  );
}

/** /admin/:resource/:id (and the nested view): a row's fields, its actions and its child lists. */
export function ResourceViewPage() {
  return (
    <ResourceScope>
      <ViewScreen />
    </ResourceScope>
  );
}
