import { Alert, Button, Center, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../../api/client';
import { downloadFailureText, saveBlob } from '../../components/file-download';
import { ParentsOnly } from '../../components/parents-only';

/**
 * /admin/students/invoices/:id/pdf, the "download it" link of the invoice mail: files need the
 * session token, so the mail links here; a signed-out parent signs in first and comes back.
 */
function Download({ id }: { id: number }) {
  useDocumentTitle('Your invoice · Tumble');
  const download = useMutation({
    mutationFn: async () =>
      saveBlob(await api.download(`/api/v1/students/invoices/${id}/pdf`), `invoice-${id}.pdf`),
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: download once when the page opens
  useEffect(() => {
    download.mutate();
  }, [id]);
  return (
    <Center mih="70dvh" p="md">
      <Paper withBorder p="lg" maw={420} w="100%">
        <Stack gap="md">
          <Title order={1} fz="xl">
            Your invoice
          </Title>
          {download.isPending ? (
            <Center>
              <Loader size="sm" />
            </Center>
          ) : download.isError ? (
            <Alert color="red" role="alert">
              {downloadFailureText(download.error)}
            </Alert>
          ) : (
            <Text size="sm">The PDF has been downloaded.</Text>
          )}
          <Button variant="light" onClick={() => download.mutate()} loading={download.isPending}>
            Download again
          </Button>
          <Button variant="subtle" component={Link} to={`/admin/student/payment?invoice=${id}`}>
            Pay online
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}

export function InvoicePdfPage() {
  const id = Number(useParams().id);
  return <ParentsOnly>{() => <Download id={id} />}</ParentsOnly>;
}
