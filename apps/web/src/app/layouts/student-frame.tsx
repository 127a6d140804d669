import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { AclResponse } from '@tumble/contracts/auth';
import { messages } from '@tumble/contracts/messages';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { AppFrame } from './app-frame';
import { useLogout } from './use-logout';

/** Parent pages: My Account and a Logout that asks first; the sidebar logo has no link (SPEC.md point 2). */
export function StudentFrame({ acl }: { acl: AclResponse }) {
  const { logout, pending } = useLogout();
  const [confirming, { open, close }] = useDisclosure(false);

  function confirmLogout() {
    const authhash = api.getAuthHash();
    void logout(authhash ? `/admin/students/login?${new URLSearchParams({ authhash })}` : '/admin/login');
  }

  const actions = (
    <>
      <Button component={Link} to="/admin/students/profile" variant="subtle" size="compact-md">
        My Account
      </Button>
      <Button variant="default" size="compact-md" onClick={open}>
        Logout
      </Button>
      <Modal opened={confirming} onClose={close} title="Logout" centered size="sm">
        <Stack gap="lg">
          <Text>{messages.logoutConfirm}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button color="red" loading={pending} onClick={confirmLogout}>
              Logout
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
  return <AppFrame acl={acl} actions={actions} />;
}
