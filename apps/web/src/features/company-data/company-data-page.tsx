import { Alert, Button, Card, List, Stack, Text, Title } from '@mantine/core';
import { companyExportPath } from '@tumble/contracts/company-data';
import { ResourceHeader } from '../../admin/resource-header';
import { useFileDownload } from '../../components/file-download';

/** A company's data (issue 18): download everything the company holds, as a zip of CSV files. */
export function CompanyDataPage() {
  const files = useFileDownload();
  return (
    <Stack gap="md" maw={720}>
      <ResourceHeader title="Company data" crumbs={[{ label: 'Company data' }]} />
      <Card withBorder padding="lg">
        <Stack gap="sm">
          <Title order={3}>Download all</Title>
          <Text size="sm">
            One zip file with a CSV file for each kind of record (families, children, bookings, classes,
            invoices, payments and the rest) and every file you uploaded, such as your logo and signed
            waivers. Passwords and sign-in links are left out.
          </Text>
          <div>
            <Button
              onClick={() => files.download(companyExportPath, 'company-data.zip')}
              loading={files.pendingPath === companyExportPath}
            >
              Download all data
            </Button>
          </div>
          {files.failure ? (
            <Alert color="red" role="alert">
              {files.failure}
            </Alert>
          ) : null}
        </Stack>
      </Card>
      <Card withBorder padding="lg">
        <Stack gap="sm">
          <Title order={3}>Erase a family</Title>
          <Text size="sm">
            A family may ask you to delete their details. Open the family under Parents and choose Erase
            family.
          </Text>
          <List size="sm" spacing={4}>
            <List.Item>
              Names, contact details, children's dates of birth, medical notes, flags and waiver answers are
              erased.
            </List.Item>
            <List.Item>
              Invoices, payments and refunds keep their amounts, numbers and dates, as the law requires.
            </List.Item>
            <List.Item>
              A family that owes money or has something booked ahead cannot be erased yet.
            </List.Item>
          </List>
        </Stack>
      </Card>
    </Stack>
  );
}
