import { Group, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import type { ReactNode } from 'react';

/** A signed-in page's heading, with an optional line under it and buttons on the right. */
export function PageTitle({
  title,
  description,
  actions,
}: {
  title: string;
  description?: string;
  actions?: ReactNode;
}) {
  useDocumentTitle(`${title} · Tumble`);
  return (
    <Group justify="space-between" align="flex-end" gap="sm">
      <Stack gap={2}>
        <Title order={1} fz={{ base: 22, sm: 28 }}>
          {title}
        </Title>
        {description ? (
          <Text c="dimmed" size="sm">
            {description}
          </Text>
        ) : null}
      </Stack>
      {actions ? <Group gap="xs">{actions}</Group> : null}
    </Group>
  );
}
