import { Kbd, NavLink, Stack, Text, TextInput } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import type { NavigationItem } from '@tumble/contracts/auth';
import { type KeyboardEvent, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { SearchIcon } from '../../components/icons';

export function isActive(pathname: string, path: string): boolean {
  if (pathname === path || pathname === `${path}/`) return true;
  return path !== '/admin' && pathname.startsWith(`${path}/`);
}

interface Section {
  group: string | null;
  items: NavigationItem[];
}

/** Consecutive entries of one group form a section; ungrouped entries stand alone. */
export function sectionsOf(items: readonly NavigationItem[]): Section[] {
  const sections: Section[] = [];
  for (const item of items) {
    const group = item.group ?? null;
    const last = sections.at(-1);
    if (last && group !== null && last.group === group) last.items.push(item);
    else sections.push({ group, items: [item] });
  }
  return sections;
}

/**
 * After a screen is opened from the sidebar, the keyboard carries on in that screen: focus moves to
 * the page's main region (on a phone the sidebar closes, and focus left in it would be on nothing
 * visible). Deferred a frame so the new route has replaced the old one.
 */
function focusMain() {
  requestAnimationFrame(() => document.querySelector<HTMLElement>('main')?.focus({ preventScroll: true }));
}

const matches = (item: NavigationItem, q: string) =>
  `${item.label} ${item.group ?? ''}`.toLowerCase().includes(q.trim().toLowerCase());

/**
 * The sidebar: entries grouped by what staff do (the server's `group`), the current page's group
 * open (all of them on a page of no group, such as the dashboard), and a quick search ("/" or Ctrl+K focuses it; typing filters every screen, arrows move,
 * Enter opens, Escape clears).
 */
export function SideNavigation({ items, onNavigate }: { items: NavigationItem[]; onNavigate: () => void }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const search = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState('');
  const [highlight, setHighlight] = useState(0);
  const currentGroup = items.find((i) => isActive(pathname, i.path))?.group ?? null;
  const [toggled, setToggled] = useState<Record<string, boolean>>({});
  const sections = useMemo(() => sectionsOf(items), [items]);
  const found = query.trim() ? items.filter((i) => matches(i, query)) : [];
  const grouped = items.some((i) => i.group);

  useHotkeys([
    ['mod+K', () => search.current?.focus()],
    ['/', () => search.current?.focus()],
  ]);

  const go = (item: NavigationItem) => {
    setQuery('');
    navigate(item.path);
    onNavigate();
    focusMain();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') setHighlight((h) => Math.min(h + 1, found.length - 1));
    else if (event.key === 'ArrowUp') setHighlight((h) => Math.max(h - 1, 0));
    else if (event.key === 'Enter' && found[highlight]) go(found[highlight]);
    else if (event.key === 'Escape') setQuery('');
    else return;
    event.preventDefault();
  };

  const link = (item: NavigationItem, index?: number) => (
    <NavLink
      key={item.path}
      component={Link}
      to={item.path}
      label={item.label}
      description={index !== undefined ? (item.group ?? undefined) : undefined}
      active={index !== undefined ? index === highlight : isActive(pathname, item.path)}
      onClick={() => {
        setQuery('');
        onNavigate();
        focusMain();
      }}
      variant="light"
      style={{ borderRadius: 'var(--mantine-radius-md)' }}
    />
  );

  return (
    <Stack gap={4}>
      {items.length > 8 ? (
        <TextInput
          ref={search}
          aria-label="Go to a screen"
          placeholder="Go to…"
          leftSection={<SearchIcon size={14} />}
          rightSection={<Kbd size="xs">/</Kbd>}
          value={query}
          onChange={(e) => {
            setQuery(e.currentTarget.value);
            setHighlight(0);
          }}
          onKeyDown={onKeyDown}
          mb="xs"
        />
      ) : null}
      {query.trim() ? (
        found.length ? (
          <nav aria-label="Screens found">{found.map((item, i) => link(item, i))}</nav>
        ) : (
          <Text size="sm" c="dimmed" px="sm">
            No screen matches “{query.trim()}”.
          </Text>
        )
      ) : !grouped ? (
        items.map((item) => link(item))
      ) : (
        sections.map((section) => {
          if (section.group === null) return section.items.map((item) => link(item));
          // On a page of no group (the dashboard) every group is open: the whole map at a glance.
          const opened = toggled[section.group] ?? (currentGroup === null || section.group === currentGroup);
          return (
            <NavLink
              key={section.group}
              component="button"
              type="button"
              aria-expanded={opened}
              label={section.group}
              opened={opened}
              onChange={(opened) => setToggled((t) => ({ ...t, [section.group!]: opened }))}
              childrenOffset="sm"
              fw={600}
              style={{ borderRadius: 'var(--mantine-radius-md)' }}
            >
              {section.items.map((item) => link(item))}
            </NavLink>
          );
        })
      )}
    </Stack>
  );
}
