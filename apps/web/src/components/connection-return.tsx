import { Alert } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type ReactNode, useEffect } from 'react';
import { useSearchParams } from 'react-router';

/**
 * The page an outside service's sign-in (OAuth) returns to, with `?connected=<value>` or
 * `?error=<words>`: a notification when it connected, the refusal in an alert until it is closed;
 * either way the address is cleaned so a reload says nothing twice. `announce` names what connected
 * (null: not a value this page knows). Used by the accounting, mailing and payment account pages.
 */
export function useConnectionReturn(
  announce: (connected: string) => { title: string; message: string } | null,
): ReactNode {
  const [params, setParams] = useSearchParams();
  const connected = params.get('connected');
  const returnError = params.get('error');
  useEffect(() => {
    const notice = connected ? announce(connected) : null;
    if (notice) {
      notifications.show({ color: 'teal', ...notice });
      setParams({}, { replace: true });
    }
  }, [connected, announce, setParams]);
  return returnError ? (
    <Alert color="red" role="alert" withCloseButton onClose={() => setParams({}, { replace: true })}>
      {returnError}
    </Alert>
  ) : null;
}
