import { Text, type TextProps } from '@mantine/core';

/** The product's name as a wordmark. */
export function Wordmark(props: TextProps) {
  return (
    <Text component="span" fw={800} fz="xl" c="teal.7" lts={-0.5} {...props}>
      Tumble
    </Text>
  );
}
