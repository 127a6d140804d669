import { Box, Container } from '@mantine/core';
import { Outlet } from 'react-router';

/** Public booking, checkout, waiver and invitation pages: the page brings its own company branding. */
export function PublicLayout() {
  return (
    <Box bg="gray.0" mih="100dvh">
      <Container size="lg" px="md" py={{ base: 'md', sm: 'xl' }}>
        <Outlet />
      </Container>
    </Box>
  );
}
