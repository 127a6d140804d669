import { MantineProvider } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { aclKeys } from '../api/acl';
import { api } from '../api/client';
import { NotificationsHost } from './notifications-host';
import { createQueryClient } from './query-client';
import { theme } from './theme';

interface AppProvidersProps {
  children: ReactNode;
  queryClient?: QueryClient;
  /** 'test' turns off Mantine transitions and portals. */
  env?: 'default' | 'test';
}

export function AppProviders({ children, queryClient: given, env = 'default' }: AppProvidersProps) {
  const [queryClient] = useState(() => given ?? createQueryClient());

  // Logout and the 403 rule clear the session; cached user meta must not outlive it.
  useEffect(
    () => api.onSessionCleared(() => queryClient.removeQueries({ queryKey: aclKeys.all })),
    [queryClient],
  );

  return (
    <MantineProvider theme={theme} defaultColorScheme="light" env={env}>
      <QueryClientProvider client={queryClient}>
        <NotificationsHost />
        {children}
      </QueryClientProvider>
    </MantineProvider>
  );
}
