import { Center, Loader } from '@mantine/core';

export function PageLoader() {
  return (
    <Center mih="40vh" p="xl">
      {/* A status, so its name is allowed (a bare span may not carry aria-label) and announced. */}
      <Loader role="status" aria-label="Loading" />
    </Center>
  );
}
