import { useLocation } from 'react-router';
import { parseResourcePath } from '../resource-ref';
import { CustomScreenPage, isCustomScreen } from './custom-screen-page';
import { ResourceFormPage } from './resource-form-page';
import { ResourceListPage } from './resource-list-page';
import { ResourceViewPage } from './resource-view-page';

/**
 * /admin/:resource/:id/… : a row's nested resources at any depth (`/admin/party-bookings/7/guests`,
 * `/admin/terms/1/classes/4/sessions/9/edit`), or a custom screen an action opens. The path itself
 * says which screen; the server's meta says which resources nest where.
 */
export function NestedResourcePage() {
  const { pathname } = useLocation();
  const screen = pathname.split('/').filter(Boolean)[3];
  if (screen && isCustomScreen(screen) && pathname.split('/').filter(Boolean).length === 4) {
    return <CustomScreenPage screen={screen} />;
  }
  switch (parseResourcePath(pathname)?.screen) {
    case 'add':
    case 'edit':
      return <ResourceFormPage />;
    case 'view':
      return <ResourceViewPage />;
    default:
      return <ResourceListPage />;
  }
}
