import { useNotifications } from '@mantine/notifications';
import { lazy, Suspense, useState } from 'react';

/**
 * Mantine's notification container (with its transitions and scroll lock) is loaded only once some
 * page shows a notification: public pages never do, and it kept ~10 KB of gzipped JS in every
 * page's first load (issue 19). A notification shown before it arrives waits in the store.
 */
const Notifications = lazy(async () => ({ default: (await import('@mantine/notifications')).Notifications }));

export function NotificationsHost() {
  const { notifications, queue } = useNotifications();
  const [wanted, setWanted] = useState(false);
  // Once loaded it stays mounted, so the last notification's exit transition still plays.
  if (!wanted && notifications.length + queue.length > 0) setWanted(true);
  return wanted ? (
    <Suspense fallback={null}>
      <Notifications position="bottom-right" />
    </Suspense>
  ) : null;
}
