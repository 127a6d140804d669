import { Alert, Center, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { messages } from '@tumble/contracts/messages';
import type { ReactNode } from 'react';
import { PageLoader } from '../../../components/page-loader';

/** A list page's body: the loader, the load failure, the empty state, or the rows. */
export function ListContent<T>({
  query,
  empty,
  children,
}: {
  query: UseQueryResult<T[]>;
  empty: ReactNode;
  children: (rows: T[]) => ReactNode;
}) {
  if (query.isError) {
    return (
      <Alert color="red" role="alert">
        {messages.formLoadFailed}
      </Alert>
    );
  }
  if (query.isPending) return <PageLoader />;
  if (query.data.length === 0) {
    return (
      <Center py="xl">
        <Text c="dimmed">{empty}</Text>
      </Center>
    );
  }
  return children(query.data);
}
