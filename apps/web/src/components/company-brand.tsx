import { Avatar, Group, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { initials } from '@tumble/contracts/display';
import { Link } from 'react-router';

interface CompanyBrandProps {
  logo: string | null | undefined;
  name: string | null | undefined;
  /** Where the logo links to; students get no link (SPEC.md point 2). */
  logoLink?: string;
  /** False while the logo is out of view (the phone's closed sidebar): Tab skips it. */
  logoFocusable?: boolean;
  size?: 'md' | 'lg';
}

/** The company's logo (or its initials) and name, as the sidebar and the parent sign-in page show them. */
export function CompanyBrand({ logo, name, logoLink, logoFocusable = true, size = 'md' }: CompanyBrandProps) {
  const displayName = name?.trim() || 'Tumble';
  const avatar = (
    <Avatar
      src={logo || null}
      alt={`${displayName} logo`}
      size={size === 'lg' ? 64 : 44}
      radius="md"
      color="teal"
      // White on teal 7 reads at 4.5:1 or more; teal on light teal did not (issue 19, axe).
      variant="filled"
    >
      {/* The name is written beside it; the initials are decoration a screen reader need not spell. */}
      <span aria-hidden="true">{initials(displayName)}</span>
    </Avatar>
  );
  return (
    <Group gap="sm" wrap="nowrap" justify={size === 'lg' ? 'center' : 'flex-start'}>
      {logoLink ? (
        <UnstyledButton component={Link} to={logoLink} tabIndex={logoFocusable ? undefined : -1}>
          {avatar}
          {/* Named by text, not aria-label, so the name holds what the link shows (WCAG 2.5.3). */}
          <VisuallyHidden>My Account</VisuallyHidden>
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
