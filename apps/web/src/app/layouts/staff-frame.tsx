import { Button, Menu } from '@mantine/core';
import type { AclResponse } from '@tumble/contracts/auth';
import { Link } from 'react-router';
import { ChevronDownIcon } from '../../components/icons';
import { AppFrame } from './app-frame';
import { useLogout } from './use-logout';

/**
 * Staff pages: company users get an Account Settings menu (the top navigation the server allows their
 * role), others a My Account link (SPEC.md point 6).
 */
export function StaffFrame({ acl }: { acl: AclResponse }) {
  const { logout, pending } = useLogout();
  // The server lists only the pages this role may open (a 403 would end the session), with My
  // Account always among them.
  const accountLinks = acl.navigation.top.length
    ? acl.navigation.top
    : [{ label: 'My Account', path: '/admin/my-account' }];
  const actions = (
    <>
      {acl.meta.is_company ? (
        <Menu position="bottom-end" width={200} shadow="md">
          <Menu.Target>
            <Button variant="subtle" size="compact-md" rightSection={<ChevronDownIcon />}>
              Account Settings
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {accountLinks.map((item) => (
              <Menu.Item key={item.path} component={Link} to={item.path}>
                {item.label}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      ) : (
        <Button component={Link} to="/admin/my-account" variant="subtle" size="compact-md">
          My Account
        </Button>
      )}
      <Button
        variant="default"
        size="compact-md"
        loading={pending}
        onClick={() => void logout('/admin/login')}
      >
        Logout
      </Button>
    </>
  );
  return <AppFrame acl={acl} logoLink="/admin/my-account" actions={actions} />;
}
