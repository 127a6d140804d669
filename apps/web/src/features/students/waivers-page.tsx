import { Alert, Button, Card, Stack, Table, Text } from '@mantine/core';
import { formatDateTime } from '../../admin/format';
import { useFileDownload } from '../../components/file-download';
import { PageTitle } from '../../components/page-title';
import { useMyWaivers } from './api/waivers';
import { ListContent } from './components/list-content';

/** /admin/students/waiver: the waivers signed for the parent's children, as PDFs. */
export function MyWaiversPage() {
  const waivers = useMyWaivers();
  const pdfs = useFileDownload();
  return (
    <Stack gap="md" maw={1100} w="100%" mx="auto">
      <PageTitle title="My Waivers" description="Every waiver you have signed for your children." />
      {pdfs.failure ? (
        <Alert color="red" role="alert">
          {pdfs.failure}
        </Alert>
      ) : null}
      <ListContent query={waivers} empty="You have not signed any waivers yet.">
        {(rows) => (
          <Card p={{ base: 'xs', sm: 'md' }}>
            <Table.ScrollContainer minWidth={640} type="native">
              <Table striped verticalSpacing="xs" aria-label="Signed waivers">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Child</Table.Th>
                    <Table.Th>Waiver</Table.Th>
                    <Table.Th>Signed by</Table.Th>
                    <Table.Th>Signed at</Table.Th>
                    <Table.Th ta="right">PDF</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((waiver) => (
                    <Table.Tr key={waiver.id}>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{waiver.child_name}</Table.Td>
                      <Table.Td>
                        {waiver.waiver_title}{' '}
                        <Text span size="xs" c="dimmed">
                          v{waiver.version}
                        </Text>
                      </Table.Td>
                      <Table.Td>{waiver.signer_name}</Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(waiver.signed_at)}</Table.Td>
                      <Table.Td ta="right">
                        <Button
                          size="compact-sm"
                          variant="light"
                          loading={pdfs.pendingPath === waiver.pdf_url}
                          onClick={() => pdfs.download(waiver.pdf_url, `signed-waiver-${waiver.id}.pdf`)}
                          aria-label={`Download PDF of ${waiver.child_name}'s ${waiver.waiver_title}`}
                        >
                          Download PDF
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Card>
        )}
      </ListContent>
    </Stack>
  );
}
