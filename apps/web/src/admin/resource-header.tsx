import { Anchor, Breadcrumbs, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { pageBase, parentOf } from './resource-ref';
import { recordTitle, useResourceScope } from './resource-scope';

interface Crumb {
  label: string;
  to?: string;
}

/** The trail above a screen: Events › Holiday camp › Sessions › Morning camp. */
export function useCrumbs(...tail: Crumb[]): Crumb[] {
  const { ref, meta, parentMeta, parentRecord } = useResourceScope();
  const crumbs: Crumb[] = [];
  const parentList = parentOf(ref);
  if (ref.parent && parentList && parentMeta) {
    crumbs.push({ label: parentMeta.label, to: pageBase(parentList) });
    crumbs.push({
      label: recordTitle(parentMeta, parentRecord),
      to: `${pageBase(parentList)}/${ref.parent.id}`,
    });
  }
  crumbs.push({ label: meta.label, to: pageBase(ref) });
  return [...crumbs, ...tail];
}

interface ResourceHeaderProps {
  title: string;
  crumbs: Crumb[];
  /** Buttons on the right; they wrap under the title on a phone. */
  actions?: ReactNode;
}

export function ResourceHeader({ title, crumbs, actions }: ResourceHeaderProps) {
  useDocumentTitle(`${title} · Tumble`);
  return (
    <Stack gap={6}>
      {crumbs.length > 1 ? (
        <Breadcrumbs separator="›" separatorMargin={6} style={{ flexWrap: 'wrap' }} aria-label="Breadcrumbs">
          {crumbs.slice(0, -1).map((crumb) =>
            crumb.to ? (
              <Anchor key={`${crumb.label}-${crumb.to}`} component={Link} to={crumb.to} size="sm">
                {crumb.label}
              </Anchor>
            ) : (
              <Text key={crumb.label} size="sm" c="dimmed">
                {crumb.label}
              </Text>
            ),
          )}
          <Text size="sm" c="dimmed">
            {crumbs.at(-1)?.label}
          </Text>
        </Breadcrumbs>
      ) : null}
      <Group justify="space-between" align="center" gap="sm">
        <Title order={1} fz={{ base: 22, sm: 28 }} style={{ overflowWrap: 'anywhere' }}>
          {title}
        </Title>
        {actions ? <Group gap="xs">{actions}</Group> : null}
      </Group>
    </Stack>
  );
}

/**
 * A parent row's tabs: its details and each nested resource (an event's Sessions, Tickets, Price
 * tiers, Contacts, Downloads). Shown on the parent's view screen and on the nested lists.
 */
export function ParentTabs({
  base,
  tabs,
  active,
}: {
  /** The parent row's page ('/admin/events/3'). */
  base: string;
  tabs: { name: string; label: string }[];
  /** 'details' or a child's name. */
  active: string;
}) {
  const navigate = useNavigate();
  if (tabs.length === 0) return null;
  return (
    <Tabs
      value={active}
      onChange={(value) => {
        if (value && value !== active) navigate(value === 'details' ? base : `${base}/${value}`);
      }}
      keepMounted={false}
    >
      <Tabs.List style={{ flexWrap: 'wrap' }}>
        <Tabs.Tab value="details">Details</Tabs.Tab>
        {tabs.map((child) => (
          <Tabs.Tab key={child.name} value={child.name}>
            {child.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
