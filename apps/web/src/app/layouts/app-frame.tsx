import { AppShell, Burger, Group, ScrollArea, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { AclResponse } from '@tumble/contracts/auth';
import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { CompanyBrand } from '../../components/company-brand';
import { useNarrowScreen } from '../../components/narrow-screen';
import { Wordmark } from '../../components/wordmark';
import { SupportBanner } from '../../features/operators/support-banner';
import { SideNavigation } from './side-navigation';

interface AppFrameProps {
  acl: AclResponse;
  /** Where the sidebar logo links to; none for students. */
  logoLink?: string;
  /**
   * The right side of the top bar: account links (built by each frame from `navigation.top`) and
   * Logout.
   */
  actions: ReactNode;
}

/** Sidebar + top bar of signed-in pages. Below 769px the sidebar collapses behind a burger. */
export function AppFrame({ acl, logoLink, actions }: AppFrameProps) {
  const [opened, { toggle, close }] = useDisclosure(false);
  const side = acl.navigation.side;
  // Below 769px the closed sidebar is only slid out of view: its links leave the Tab order (inert,
  // and the logo link untabbable) so focus never lands on something nobody can see (WCAG 2.4.7).
  const hidden = useNarrowScreen() && !opened;

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 264, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding={{ base: 'sm', sm: 'lg' }}
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label="Toggle navigation"
            />
            <Wordmark visibleFrom="xs" />
          </Group>
          <Group gap="xs" wrap="nowrap">
            {actions}
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="md" aria-label="Main navigation">
        <AppShell.Section pb="md" mb="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
          <CompanyBrand
            logo={acl.meta.logo}
            name={acl.meta.company_name}
            logoLink={logoLink}
            logoFocusable={!hidden}
          />
        </AppShell.Section>
        <AppShell.Section grow component={ScrollArea} inert={hidden}>
          {side.length === 0 ? (
            <Text size="sm" c="dimmed" px="sm">
              No menu items.
            </Text>
          ) : (
            <SideNavigation items={side} onNavigate={close} />
          )}
        </AppShell.Section>
      </AppShell.Navbar>

      {/* Focusable from script only: the sidebar moves focus here after opening a screen. */}
      <AppShell.Main bg="gray.0" tabIndex={-1} style={{ outline: 'none' }}>
        {acl.meta.support ? (
          <SupportBanner support={acl.meta.support} companyId={acl.meta.company_id} />
        ) : null}
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
