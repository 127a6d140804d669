import { createTheme, DEFAULT_THEME, em } from '@mantine/core';

/** SPEC.md point 9: below 769px is mobile (the sidebar collapses to a burger). */
export const MOBILE_BREAKPOINT = em(769);

export const theme = createTheme({
  primaryColor: 'teal',
  primaryShade: { light: 7, dark: 5 },
  defaultRadius: 'md',
  fontFamily: `Inter, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif`,
  headings: { fontFamily: DEFAULT_THEME.fontFamily, fontWeight: '700' },
  // `sm` is the mobile breakpoint, so `hiddenFrom="sm"`, `visibleFrom="sm"` and the AppShell navbar
  // all switch at 769px.
  breakpoints: { xs: em(576), sm: MOBILE_BREAKPOINT, md: em(992), lg: em(1200), xl: em(1408) },
  components: {
    Alert: { defaultProps: { variant: 'light' } },
    Card: { defaultProps: { withBorder: true, shadow: 'xs', radius: 'md', padding: 'lg' } },
  },
});
