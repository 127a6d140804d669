import { Card, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';

interface SuccessCardProps {
  title: string;
  children: ReactNode;
}

/**
 * The end of a booking (event or party): a tick, the title ('Booking Successful!') and what happens
 * next. The page's BookingHeader carries the 'Go to my account' link.
 */
export function SuccessCard({ title, children }: SuccessCardProps) {
  return (
    <Card maw={560} mx="auto" ta="center">
      <Stack align="center" gap="sm">
        <ThemeIcon size={56} radius="xl" color="teal" variant="light" aria-hidden="true">
          <svg
            width={28}
            height={28}
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth={2.5}
            aria-hidden="true"
          >
            <title>Done</title>
            <path d="M5 12l5 5L20 7" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </ThemeIcon>
        <Title order={1} size="h2">
          {title}
        </Title>
        <Text c="dimmed">{children}</Text>
      </Stack>
    </Card>
  );
}
