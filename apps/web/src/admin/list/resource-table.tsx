import { ActionIcon, Anchor, Checkbox, Group, Table, Text, Tooltip, UnstyledButton } from '@mantine/core';
import type { ActionMeta, FieldMeta, ResourceMeta } from '@tumble/contracts/resources';
import { Link } from 'react-router';
import { EyeIcon, PencilIcon, SortIcon, TrashIcon } from '../../components/icons';
import type { RecordWithLabels } from '../api/get-record';
import { FieldValue } from '../field-value';
import { canEditRows, recordTitle } from '../resource-scope';

/** Field types whose values are a few characters and read wrongly when split ("Wednesd|ay"). */
const SHORT_VALUES = new Set<FieldMeta['type']>([
  'select',
  'date',
  'time',
  'datetime',
  'number',
  'money',
  'percent',
  'boolean',
  'colour',
]);

/** SPEC.md point 9: tables have a 100px action column. */
export const ACTION_COLUMN_WIDTH = 100;

interface ResourceTableProps {
  meta: ResourceMeta;
  rows: RecordWithLabels[];
  basePath: string;
  sort: string;
  order: 'asc' | 'desc';
  onSort: (field: string) => void;
  selected: ReadonlySet<number>;
  onSelect: (ids: number[], selected: boolean) => void;
  /** The delete (or archive) action, when the role may run it. */
  deleteAction: ActionMeta | undefined;
  onDelete: (id: number) => void;
}

/**
 * One page of a resource: a checkbox column, the resource's columns (sortable ones sort on the
 * server) and view/edit/delete icons. Scrolls sideways on a phone.
 */
export function ResourceTable(props: ResourceTableProps) {
  const { meta, rows, basePath, sort, order, onSort, selected, onSelect, deleteAction, onDelete } = props;
  const columns = meta.columns
    .map((name) => meta.fields.find((f) => f.name === name))
    .filter((f): f is FieldMeta => f !== undefined);
  const pageIds = rows.map((r) => r.id);
  const selectedOnPage = pageIds.filter((id) => selected.has(id)).length;
  const noun = meta.singular.toLowerCase();

  return (
    <Table.ScrollContainer minWidth={640} type="native" tabIndex={0}>
      <Table striped highlightOnHover verticalSpacing="xs" aria-label={meta.label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40}>
              <Checkbox
                aria-label="Select all rows on this page"
                checked={pageIds.length > 0 && selectedOnPage === pageIds.length}
                indeterminate={selectedOnPage > 0 && selectedOnPage < pageIds.length}
                onChange={(event) => onSelect(pageIds, event.currentTarget.checked)}
                disabled={pageIds.length === 0}
              />
            </Table.Th>
            {columns.map((field) => {
              const sortable = meta.sortable.includes(field.name);
              const direction = sort === field.name ? order : null;
              return (
                <Table.Th
                  key={field.name}
                  aria-sort={
                    direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : undefined
                  }
                  style={{ whiteSpace: 'nowrap' }}
                >
                  {sortable ? (
                    <UnstyledButton
                      onClick={() => onSort(field.name)}
                      fw={600}
                      fz="sm"
                      // 24px tall at least: the header's text alone is 22px (WCAG 2.5.8).
                      mih={24}
                    >
                      <Group gap={4} wrap="nowrap">
                        {field.label}
                        <SortIcon direction={direction} />
                      </Group>
                    </UnstyledButton>
                  ) : (
                    field.label
                  )}
                </Table.Th>
              );
            })}
            <Table.Th style={{ width: ACTION_COLUMN_WIDTH, minWidth: ACTION_COLUMN_WIDTH }} ta="right">
              <Text span size="sm" fw={600}>
                Actions
              </Text>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            const title = recordTitle(meta, row);
            return (
              <Table.Tr
                key={row.id}
                bg={selected.has(row.id) ? 'var(--mantine-primary-color-light)' : undefined}
              >
                <Table.Td>
                  <Checkbox
                    aria-label={`Select ${title}`}
                    checked={selected.has(row.id)}
                    onChange={(event) => onSelect([row.id], event.currentTarget.checked)}
                  />
                </Table.Td>
                {columns.map((field) => (
                  <Table.Td
                    key={field.name}
                    // A long unbroken name wraps inside its own column instead of running into the next;
                    // short values (a day, a date, an amount) stay whole rather than split mid-word.
                    style={{
                      ...(field.name === meta.titleField ? { minWidth: 160 } : {}),
                      maxWidth: 320,
                      ...(SHORT_VALUES.has(field.type) && field.name !== meta.titleField
                        ? { whiteSpace: 'nowrap' }
                        : { overflowWrap: 'anywhere' }),
                    }}
                  >
                    {field.name === meta.titleField ? (
                      <Anchor component={Link} to={`${basePath}/${row.id}`} size="sm" fw={500}>
                        {title}
                      </Anchor>
                    ) : (
                      <FieldValue field={field} value={row[field.name]} labels={row._labels} mode="list" />
                    )}
                  </Table.Td>
                ))}
                <Table.Td style={{ width: ACTION_COLUMN_WIDTH, minWidth: ACTION_COLUMN_WIDTH }}>
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <Tooltip label="View" openDelay={400}>
                      <ActionIcon
                        component={Link}
                        to={`${basePath}/${row.id}`}
                        variant="subtle"
                        color="gray"
                        aria-label={`View ${noun} ${title}`}
                      >
                        <EyeIcon />
                      </ActionIcon>
                    </Tooltip>
                    {canEditRows(meta) ? (
                      <Tooltip label="Edit" openDelay={400}>
                        <ActionIcon
                          component={Link}
                          to={`${basePath}/${row.id}/edit`}
                          variant="subtle"
                          color="gray"
                          aria-label={`Edit ${noun} ${title}`}
                        >
                          <PencilIcon />
                        </ActionIcon>
                      </Tooltip>
                    ) : null}
                    {deleteAction ? (
                      <Tooltip label={deleteAction.label} openDelay={400}>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`${deleteAction.label} ${noun} ${title}`}
                          onClick={() => onDelete(row.id)}
                        >
                          <TrashIcon />
                        </ActionIcon>
                      </Tooltip>
                    ) : null}
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
