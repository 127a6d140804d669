import {
  Alert,
  Anchor,
  Badge,
  Card,
  Center,
  Group,
  Pagination,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { messages } from '@tumble/contracts/messages';
import {
  STUDENTS_PAGE_SIZE,
  type StudentDirectoryQuery,
  studentSorts,
} from '@tumble/contracts/student-directory';
import { Link, useSearchParams } from 'react-router';
import { PageLoader } from '../../components/page-loader';
import { PageTitle } from '../../components/page-title';
import { SearchInput } from '../../components/search-input';
import { useStudentDirectory } from './student-directory-api';

const sortLabels: Record<(typeof studentSorts)[number], string> = {
  name: 'Name',
  age: 'Age',
  family: 'Family',
};

/** The search, sort and page live in the URL (?q=&sort=&dir=&page=). */
function useDirectoryQuery(): [StudentDirectoryQuery, (changes: Record<string, string | null>) => void] {
  const [params, setParams] = useSearchParams();
  const raw = params.get('page');
  const sort = params.get('sort');
  const query: StudentDirectoryQuery = {
    q: (params.get('q') ?? '').slice(0, 100),
    sort: studentSorts.find((s) => s === sort) ?? 'name',
    dir: params.get('dir') === 'desc' ? 'desc' : 'asc',
    page: raw && /^\d{1,5}$/.test(raw) && Number(raw) > 0 ? Number(raw) : 1,
  };
  const set = (changes: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null || value === '') next.delete(key);
          else next.set(key, value);
        }
        if (!('page' in changes)) next.delete('page');
        return next;
      },
      { replace: true },
    );
  return [query, set];
}

/** /admin/students: every child across the company's families (issue 17). */
export function StudentsPage() {
  const [query, set] = useDirectoryQuery();
  const list = useStudentDirectory(query);
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / STUDENTS_PAGE_SIZE));
  return (
    <Stack gap="md" maw={1200} w="100%" mx="auto">
      <PageTitle title="Students" description="Every child across your families." />
      <Card p={{ base: 'sm', sm: 'md' }}>
        <Stack gap="sm">
          <Group gap="sm" align="flex-end" wrap="wrap">
            <SearchInput
              value={query.q}
              onSearch={(q) => set({ q: q.trim() || null })}
              placeholder="Child, parent, phone or email"
              aria-label="Search students"
              w={{ base: '100%', xs: 300 }}
              size="sm"
            />
            <Select
              label="Sort by"
              data={studentSorts.map((s) => ({ value: s, label: sortLabels[s] }))}
              value={query.sort}
              onChange={(sort) => set({ sort: sort === 'name' ? null : sort })}
              allowDeselect={false}
              size="sm"
              w={{ base: '48%', xs: 140 }}
            />
            <SegmentedControl
              aria-label="Order"
              size="sm"
              data={[
                { value: 'asc', label: query.sort === 'age' ? 'Youngest' : 'A–Z' },
                { value: 'desc', label: query.sort === 'age' ? 'Oldest' : 'Z–A' },
              ]}
              value={query.dir}
              onChange={(dir) => set({ dir: dir === 'asc' ? null : dir })}
            />
          </Group>
          {list.isError ? (
            <Alert color="red" role="alert">
              {messages.communicationError}
            </Alert>
          ) : list.isPending ? (
            <PageLoader />
          ) : list.data.rows.length === 0 ? (
            <Center py="xl">
              <Text c="dimmed">{query.q ? 'No children match this search.' : 'No children yet.'}</Text>
            </Center>
          ) : (
            <Table.ScrollContainer minWidth={320} type="native">
              <Table striped highlightOnHover verticalSpacing="xs" aria-label="Students">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Child</Table.Th>
                    <Table.Th>Age</Table.Th>
                    <Table.Th visibleFrom="sm">Family</Table.Th>
                    <Table.Th visibleFrom="md">Contact</Table.Th>
                    <Table.Th ta="right" visibleFrom="sm">
                      Classes
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.data.rows.map((row) => (
                    <Table.Tr key={row.id}>
                      <Table.Td>
                        <Anchor component={Link} to={`/admin/students/${row.id}`} size="sm" fw={500}>
                          {row.name}
                        </Anchor>
                        {row.flags.length > 0 ? (
                          <Group gap={4} mt={2}>
                            {row.flags.map((flag) => (
                              // A dot in the flag's colour, the name in the text colour: staff pick
                              // the colour, and a light one as text would not be readable (WCAG 1.4.3).
                              <Badge key={flag.id} color={flag.colour} size="xs" variant="dot">
                                {flag.name}
                              </Badge>
                            ))}
                          </Group>
                        ) : null}
                        {/* On a phone the family goes under the child. */}
                        <Text size="xs" c="dimmed" hiddenFrom="sm">
                          {row.family.name} · {row.active_classes}{' '}
                          {row.active_classes === 1 ? 'class' : 'classes'}
                        </Text>
                      </Table.Td>
                      <Table.Td>{row.age}</Table.Td>
                      <Table.Td visibleFrom="sm">{row.family.name}</Table.Td>
                      <Table.Td visibleFrom="md">
                        <Text size="sm">{row.family.email}</Text>
                        <Text size="xs" c="dimmed">
                          {row.family.phone}
                        </Text>
                      </Table.Td>
                      <Table.Td ta="right" visibleFrom="sm">
                        {row.active_classes}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          <Group justify="space-between" gap="sm">
            <Text size="sm" c="dimmed">
              {total === 1 ? '1 child' : `${total} children`}
            </Text>
            {pages > 1 ? (
              <Pagination
                total={pages}
                value={Math.min(query.page, pages)}
                onChange={(page) => set({ page: page > 1 ? String(page) : null })}
                size="sm"
              />
            ) : null}
          </Group>
        </Stack>
      </Card>
    </Stack>
  );
}
