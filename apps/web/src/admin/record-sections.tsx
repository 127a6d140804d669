import { Alert, Anchor, Card, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { messages } from '@tumble/contracts/messages';
import type { ResourceMeta } from '@tumble/contracts/resources';
import { Link } from 'react-router';
import { useRecordSections } from './api/get-sections';
import type { ResourceRef } from './resource-ref';

/**
 * The related lists a definition declares for a row's page (`sections`): a booking's children and
 * days, a parent's children and bookings. Read-only; a row with an `href` links to its own page.
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
  if (declared.length === 0) return null;
  if (sections.isError) {
    return (
      <Alert color="red" role="alert">
        {messages.communicationError}
      </Alert>
    );
  }
  if (!sections.data) return <Loader size="sm" aria-label="Loading" />;
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
              <Table.ScrollContainer minWidth={420}>
                <Table aria-labelledby={`section-${section.name}`} striped>
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
                        {section.columns.map((column, i) => {
                          const text = String(row[column.name] ?? '—');
                          const href = typeof row.href === 'string' ? row.href : null;
                          return (
                            <Table.Td key={column.name} style={{ overflowWrap: 'anywhere' }}>
                              {i === 0 && href ? (
                                <Anchor component={Link} to={href}>
                                  {text}
                                </Anchor>
                              ) : (
                                text
                              )}
                            </Table.Td>
                          );
                        })}
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
