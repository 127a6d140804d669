import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';

interface PlaceholderPageProps {
  /** The page's name, e.g. 'My Account'. */
  title: string;
  /** The issue that brings the real screen, e.g. 'Accounts'. */
  issue: string;
}

/** Stands in for a screen that a later issue delivers, saying which one. */
export function PlaceholderPage({ title, issue }: PlaceholderPageProps) {
  useDocumentTitle(`${title} · Tumble`);
  return (
    <Card maw={720} w="100%" mx="auto" data-testid="placeholder-page">
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Title order={2}>{title}</Title>
          <Badge variant="light" color="gray" style={{ flexShrink: 0 }}>
            Coming soon
          </Badge>
        </Group>
        <Text c="dimmed">{`${title} — arrives with the ${issue} issue`}</Text>
      </Stack>
    </Card>
  );
}
