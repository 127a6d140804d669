import { Anchor, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { Link } from 'react-router';
import { Wordmark } from '../components/wordmark';

export function NotFoundPage() {
  useDocumentTitle('Page not found · Tumble');
  return (
    <Center bg="gray.0" mih="100dvh" p="md">
      <Paper withBorder shadow="sm" radius="md" p="xl" maw={460} w="100%">
        <Stack gap="md" align="center" ta="center">
          <Wordmark fz={28} />
          <Text fz={48} fw={800} c="gray.6" lh={1}>
            404
          </Text>
          <Title order={1} fz={26}>
            Page not found
          </Title>
          <Text c="dimmed">The page you are looking for does not exist or has moved.</Text>
          <Anchor component={Link} to="/" fw={600}>
            Go to the home page
          </Anchor>
        </Stack>
      </Paper>
    </Center>
  );
}
