import { em } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';

/**
 * True below 769px, SPEC.md point 9's mobile (where the sidebar collapses): a list page shows a
 * card per row there rather than a table a phone must scroll sideways to reach the buttons of.
 * Read on the first render, so a phone never flashes the table.
 */
export function useNarrowScreen(): boolean {
  return useMediaQuery(`(max-width: ${em(768.9)})`, undefined, { getInitialValueInEffect: false });
}
