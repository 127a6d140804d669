import { useParams } from 'react-router';
import { PlaceholderPage } from '../../components/placeholder-page';
import { ScreenProblem } from '../resource-scope';

/**
 * Custom screens that a resource action opens (`screen` in the action meta), by name. Each is
 * registered here until the issue that builds it replaces the placeholder with a route of its own
 * (the events' availability calendar has its own route: event-availability-page.tsx).
 */
const customScreens: Record<string, { title: string; issue: string }> = {};

/** Whether a path segment names a custom screen rather than a nested resource. */
export function isCustomScreen(screen: string): boolean {
  return Object.hasOwn(customScreens, screen);
}

/** /admin/:resource/:id/:screen. */
export function CustomScreenPage({ screen: fixed }: { screen?: string }) {
  const params = useParams();
  const screen = fixed ?? params.screen ?? '';
  const known = customScreens[screen];
  if (!known) {
    return (
      <ScreenProblem
        title="Not found"
        message="This page does not exist, or it is not available to your account."
        back="/admin/dashboard"
      />
    );
  }
  return <PlaceholderPage title={known.title} issue={known.issue} />;
}

export { EventAvailabilityPage } from './event-availability-page';
