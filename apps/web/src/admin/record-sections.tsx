import { Alert, Anchor, Card, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { messages } from '@tumble/contracts/messages';
import type { ResourceMeta, RecordSections as SectionsData } from '@tumble/contracts/resources';
import { Link } from 'react-router';
import { useRecordSections } from './api/get-sections';
import type { ResourceRef } from './resource-ref';

/** Below Mantine's xs breakpoint: a phone held upright. */
const PHONE = '(max-width: 36em)';

/**
 * The related lists a definition declares for a row's page (`sections`): a booking's children and
 * days, a parent's children and bookings. Read-only; a row with an `href` links to its own page.
 * A table, and on a phone a list of small cards (a table of four columns does not fit 390px).
 */
export function RecordSections({
  resourceRef,
  meta,
  id,
}: {
  resourceRef: ResourceRef;
  meta: ResourceMeta;
  id: number;
}) {
  const declared = meta.sections ?? [];
  const sections = useRecordSections(resourceRef, id, declared.length > 0);
  const phone = useMediaQuery(PHONE) ?? false;
  if (declared.length === 0) return null;
  if (sections.isError) {
    return (
      <Alert color="red" role="alert">
        {messages.communicationError}
      </Alert>
    );
  }
  if (!sections.data) return <Loader size="sm" role="status" aria-label="Loading" />;
  return (
    <Stack gap="md">
      {sections.data.map((section) => (
        <Card key={section.name} data-section={section.name}>
          <Stack gap="sm">
            <Title order={3} size="h4" id={`section-${section.name}`}>
              {section.label}
            </Title>
            {section.rows.length === 0 ? (
              <Text size="sm" c="dimmed">
                None yet.
              </Text>
            ) : (
              <SectionRows section={section} phone={phone} />
            )}
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}

type RecordSection = SectionsData[number];
type Row = RecordSection['rows'][number];

/** A row's first column links to the row's own page when it has one. */
function FirstCell({ row, text }: { row: Row; text: string }) {
  const href = typeof row.href === 'string' ? row.href : null;
  return href ? (
    <Anchor component={Link} to={href}>
      {text}
    </Anchor>
  ) : (
    text
  );
}

const cellText = (row: Row, name: string) => String(row[name] ?? '—');

function SectionRows({ section, phone }: { section: RecordSection; phone: boolean }) {
  const labelledBy = `section-${section.name}`;
  if (phone) {
    return (
      <Stack
        component="ul"
        gap="xs"
        aria-labelledby={labelledBy}
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
      >
        {section.rows.map((row, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: read-only rows with no id of their own, replaced as a whole
          <Card component="li" key={index} withBorder padding="sm">
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              <FirstCell row={row} text={cellText(row, section.columns[0]!.name)} />
            </Text>
            <dl style={{ margin: 0 }}>
              {section.columns.slice(1).map((column) => (
                <div key={column.name} style={{ display: 'flex', gap: 8 }}>
                  <Text component="dt" size="sm" c="dimmed" style={{ minWidth: 96 }}>
                    {column.label}
                  </Text>
                  <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
                    {cellText(row, column.name)}
                  </Text>
                </div>
              ))}
            </dl>
          </Card>
        ))}
      </Stack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={420}>
      <Table aria-labelledby={labelledBy} striped>
        <Table.Thead>
          <Table.Tr>
            {section.columns.map((column) => (
              <Table.Th key={column.name}>{column.label}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {section.rows.map((row, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: read-only rows with no id of their own, replaced as a whole
            <Table.Tr key={index}>
              {section.columns.map((column, i) => (
                <Table.Td key={column.name} style={{ overflowWrap: 'anywhere' }}>
                  {i === 0 ? (
                    <FirstCell row={row} text={cellText(row, column.name)} />
                  ) : (
                    cellText(row, column.name)
                  )}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
