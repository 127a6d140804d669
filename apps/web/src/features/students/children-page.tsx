import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { StudentChild } from '@tumble/contracts/students';
import { Link } from 'react-router';
import { formatDate } from '../../admin/format';
import { PencilIcon, PlusIcon } from '../../components/icons';
import { PageTitle } from '../../components/page-title';
import { useStudentChildren } from './api/children';
import { ListContent } from './components/list-content';
import { insuranceLabels } from './student-format';

function ChildCard({ child }: { child: StudentChild }) {
  const name = `${child.first_name} ${child.last_name}`;
  return (
    <Card component="article" aria-label={name} padding="md">
      <Stack gap="xs" h="100%">
        <Title order={2} fz="lg">
          {name}
        </Title>
        <Text size="sm">
          <Text span c="dimmed" size="sm">
            Date of birth:{' '}
          </Text>
          {formatDate(child.dob)}
        </Text>
        <Text size="sm">
          <Text span c="dimmed" size="sm">
            Insurance:{' '}
          </Text>
          {insuranceLabels[child.insurance_type]}
        </Text>
        <Group gap="xs">
          {child.consent === 1 ? (
            <Badge color="teal" variant="light">
              Photo consent given
            </Badge>
          ) : (
            <Badge color="gray" variant="light">
              No photo consent
            </Badge>
          )}
        </Group>
        <Group justify="flex-end" mt="auto">
          <Button
            component={Link}
            to={`/admin/students/children/${child.id}`}
            size="compact-sm"
            variant="subtle"
            leftSection={<PencilIcon size={12} />}
            aria-label={`Edit ${name}`}
          >
            Edit
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** /admin/students/children: the parent's children, with their photo consent and usual insurance. */
export function ChildrenPage() {
  const children = useStudentChildren();
  return (
    <Stack gap="md" maw={1100} w="100%" mx="auto">
      <PageTitle
        title="My Children"
        description="The children you book for. Checkout offers them first."
        actions={
          <Button
            component={Link}
            to="/admin/students/children/add"
            size="xs"
            leftSection={<PlusIcon size={14} />}
          >
            Add child
          </Button>
        }
      />
      <ListContent query={children} empty="You have not added any children yet.">
        {(rows) => (
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md">
            {rows.map((child) => (
              <ChildCard key={child.id} child={child} />
            ))}
          </SimpleGrid>
        )}
      </ListContent>
    </Stack>
  );
}
