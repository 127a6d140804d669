import { Box, Center, Container, Stack } from '@mantine/core';
import { Link, Outlet } from 'react-router';
import { Wordmark } from '../../components/wordmark';

/** Sign-in, sign-up and password pages: one narrow card, centred. */
export function AuthLayout() {
  return (
    <Box bg="gray.0" mih="100dvh">
      <Container size={480} px="md" py={{ base: 'lg', sm: 64 }}>
        <Stack gap="lg">
          <Center>
            <Link to="/" style={{ textDecoration: 'none' }} aria-label="Tumble home">
              <Wordmark fz={28} />
            </Link>
          </Center>
          <Outlet />
        </Stack>
      </Container>
    </Box>
  );
}
