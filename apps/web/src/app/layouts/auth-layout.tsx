import { Box, Center, Container, Stack } from '@mantine/core';
import { Link, Outlet } from 'react-router';
import { Wordmark } from '../../components/wordmark';
import { EmbedHeight } from '../../features/registration/embed-resize';

/**
 * Sign-in, sign-up and password pages: one narrow card, centred. The parent ones can show inside
 * a provider's website (the embedded registration form): EmbedHeight sizes the frame to them.
 */
export function AuthLayout() {
  return (
    <Box bg="gray.0" mih="100dvh">
      <EmbedHeight>
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
      </EmbedHeight>
    </Box>
  );
}
