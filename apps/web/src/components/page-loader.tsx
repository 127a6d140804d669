import { Center, Loader } from '@mantine/core';

export function PageLoader() {
  return (
    <Center mih="40vh" p="xl">
      <Loader aria-label="Loading" />
    </Center>
  );
}
