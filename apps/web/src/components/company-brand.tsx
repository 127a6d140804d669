import { Avatar, Group, Text, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';

interface CompanyBrandProps {
  logo: string | null | undefined;
  name: string | null | undefined;
  /** Where the logo links to; students get no link (SPEC.md point 2). */
  logoLink?: string;
  size?: 'md' | 'lg';
}

function initials(name: string): string {
  const letters = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? '');
  return letters.join('') || 'T';
}

/** The company's logo (or its initials) and name, as the sidebar and the parent sign-in page show them. */
export function CompanyBrand({ logo, name, logoLink, size = 'md' }: CompanyBrandProps) {
  const displayName = name?.trim() || 'Tumble';
  const avatar = (
    <Avatar
      src={logo || null}
      alt={`${displayName} logo`}
      size={size === 'lg' ? 64 : 44}
      radius="md"
      color="teal"
      variant="light"
    >
      {initials(displayName)}
    </Avatar>
  );
  return (
    <Group gap="sm" wrap="nowrap" justify={size === 'lg' ? 'center' : 'flex-start'}>
      {logoLink ? (
        <UnstyledButton component={Link} to={logoLink} aria-label="My Account">
          {avatar}
        </UnstyledButton>
      ) : (
        avatar
      )}
      <Text fw={700} size={size === 'lg' ? 'xl' : 'md'} lineClamp={2}>
        {displayName}
      </Text>
    </Group>
  );
}
