import { Paper, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import type { ReactNode } from 'react';

interface AuthCardProps {
  title: string;
  description?: ReactNode;
  /** Shown above the title, e.g. the company's logo on parent pages. */
  brand?: ReactNode;
  children: ReactNode;
}

export function AuthCard({ title, description, brand, children }: AuthCardProps) {
  useDocumentTitle(`${title} · Tumble`);
  return (
    <Paper withBorder shadow="sm" radius="md" p={{ base: 'lg', sm: 'xl' }} w="100%">
      <Stack gap="lg">
        {brand}
        <Stack gap={4}>
          <Title order={1} fz={{ base: 24, sm: 28 }} ta="center">
            {title}
          </Title>
          {description ? (
            <Text c="dimmed" size="sm" ta="center">
              {description}
            </Text>
          ) : null}
        </Stack>
        {children}
      </Stack>
    </Paper>
  );
}
