import { Box, Container } from '@mantine/core';
import { Outlet } from 'react-router';
import { CompanyClosedPage, useCompanyClosed } from '../../features/operators/company-closed-page';
import { EmbedHeight } from '../../features/registration/embed-resize';

/**
 * Public booking, checkout, waiver and invitation pages: the page brings its own company branding.
 * The registration pages can show inside a provider's website: EmbedHeight sizes the frame to them.
 */
export function PublicLayout() {
  // A suspended company's pages say bookings are closed (decision 018).
  const closed = useCompanyClosed();
  return (
    <Box bg="gray.0" mih="100dvh">
      <EmbedHeight>
        <Container size="lg" px="md" py={{ base: 'md', sm: 'xl' }}>
          {closed ? <CompanyClosedPage message={closed} /> : <Outlet />}
        </Container>
      </EmbedHeight>
    </Box>
  );
}
