import { Button, Menu } from '@mantine/core';
import type { AclResponse } from '@tumble/contracts/auth';
import { Link } from 'react-router';
import { ChevronDownIcon } from '../../components/icons';
import { AppFrame } from './app-frame';
import { useLogout } from './use-logout';

/** Staff pages: company users get an Account Settings menu, others a My Account link (SPEC.md point 6). */
export function StaffFrame({ acl }: { acl: AclResponse }) {
  const { logout, pending } = useLogout();
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
            <Menu.Item component={Link} to="/admin/my-account">
              My Account
            </Menu.Item>
            <Menu.Item component={Link} to="/admin/my-company">
              My Company
            </Menu.Item>
            <Menu.Item component={Link} to="/admin/users">
              Users
            </Menu.Item>
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
