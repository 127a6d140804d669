import { Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { NotFoundPage } from './not-found-page';

/** Catches render and lazy-loading errors (e.g. a page's code changed with a new release). */
export function RouteErrorPage() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return (
    <Center bg="gray.0" mih="100dvh" p="md">
      <Paper withBorder shadow="sm" radius="md" p="xl" maw={460} w="100%">
        <Stack gap="md" align="center" ta="center">
          <Title order={1} fz={26}>
            Something went wrong
          </Title>
          <Text c="dimmed">This page could not be shown. Reloading usually helps.</Text>
          <Button onClick={() => window.location.reload()}>Reload the page</Button>
        </Stack>
      </Paper>
    </Center>
  );
}
