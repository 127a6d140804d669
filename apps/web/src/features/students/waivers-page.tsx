import { Alert, Button, Card, Stack, Table, Text } from '@mantine/core';
import type { MyWaivers } from '@tumble/contracts/students';
import { useFileDownload } from '../../components/file-download';
import { useNarrowScreen } from '../../components/narrow-screen';
import { PageTitle } from '../../components/page-title';
import { useMyWaivers } from './api/waivers';
import { ListContent } from './components/list-content';

type SignedWaiver = MyWaivers[number];

interface PdfButtonProps {
  waiver: SignedWaiver;
  pdfs: ReturnType<typeof useFileDownload>;
  fullWidth?: boolean;
}

function PdfButton({ waiver, pdfs, fullWidth = false }: PdfButtonProps) {
  return (
    <Button
      size={fullWidth ? 'sm' : 'compact-sm'}
      variant="light"
      fullWidth={fullWidth}
      loading={pdfs.pendingPath === waiver.pdf_url}
      onClick={() => pdfs.download(waiver.pdf_url, `signed-waiver-${waiver.id}.pdf`)}
      aria-label={`Download PDF of ${waiver.child_name}'s ${waiver.waiver_title}`}
    >
      Download PDF
    </Button>
  );
}

function WaiverTable({ rows, pdfs }: { rows: SignedWaiver[]; pdfs: PdfButtonProps['pdfs'] }) {
  return (
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
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{waiver.signed_when}</Table.Td>
                <Table.Td ta="right">
                  <PdfButton waiver={waiver} pdfs={pdfs} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}

/** On a phone: one card per waiver, the download button within reach. */
function WaiverCards({ rows, pdfs }: { rows: SignedWaiver[]; pdfs: PdfButtonProps['pdfs'] }) {
  return (
    <Stack component="section" gap="sm" aria-label="Signed waivers">
      {rows.map((waiver) => (
        <Card
          key={waiver.id}
          component="article"
          aria-label={`${waiver.child_name} ${waiver.waiver_title}`}
          p="md"
        >
          <Stack gap="xs">
            <Stack gap={2}>
              <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
                {waiver.child_name}
              </Text>
              <Text size="sm">
                {waiver.waiver_title}{' '}
                <Text span size="xs" c="dimmed">
                  v{waiver.version}
                </Text>
              </Text>
            </Stack>
            <Text size="sm" c="dimmed">
              Signed by {waiver.signer_name} on {waiver.signed_when}
            </Text>
            <PdfButton waiver={waiver} pdfs={pdfs} fullWidth />
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}

/** /admin/students/waiver: the waivers signed for the parent's children, as PDFs. */
export function MyWaiversPage() {
  const waivers = useMyWaivers();
  const pdfs = useFileDownload();
  const narrow = useNarrowScreen();
  return (
    <Stack gap="md" maw={1100} w="100%" mx="auto">
      <PageTitle title="My Waivers" description="Every waiver you have signed for your children." />
      {pdfs.failure ? (
        <Alert color="red" role="alert">
          {pdfs.failure}
        </Alert>
      ) : null}
      <ListContent query={waivers} empty="You have not signed any waivers yet.">
        {(rows) =>
          narrow ? <WaiverCards rows={rows} pdfs={pdfs} /> : <WaiverTable rows={rows} pdfs={pdfs} />
        }
      </ListContent>
    </Stack>
  );
}
