import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { PageLoader } from '../components/page-loader';
import { PlaceholderPage } from '../components/placeholder-page';
import { AdminIndexRedirect } from './admin-index-redirect';
import { AuthLayout } from './layouts/auth-layout';
import { PublicLayout } from './layouts/public-layout';
import { NotFoundPage } from './not-found-page';
import { RouteErrorPage } from './route-error-page';

/** Loads a page's code only when its route is visited, so public pages stay small. */
function page<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return async () => ({ Component: pick(await load()) });
}

function placeholder(path: string, title: string, issue: string): RouteObject {
  return { path, element: <PlaceholderPage title={title} issue={issue} /> };
}

const loginPage = page(
  () => import('../features/auth/login-page'),
  (m) => m.LoginPage,
);
const forgottenPasswordPage = page(
  () => import('../features/auth/forgotten-password-page'),
  (m) => m.ForgottenPasswordPage,
);
const studentLoginPage = page(
  () => import('../features/auth/student-login-page'),
  (m) => m.StudentLoginPage,
);

/**
 * SPEC.md point 2. React Router matches with or without a trailing slash, so '/booking' and
 * '/booking/' are the same route.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    HydrateFallback: PageLoader,
    ErrorBoundary: RouteErrorPage,
    children: [
      { index: true, element: <Navigate to="/admin" replace /> },
      { path: 'admin', Component: AdminIndexRedirect },

      // Sign-in, sign-up and password pages.
      {
        Component: AuthLayout,
        children: [
          { path: 'admin/login', lazy: loginPage },
          { path: 'admin/forgotten-password', lazy: forgottenPasswordPage },
          {
            path: 'admin/reset-password',
            lazy: page(
              () => import('../features/auth/reset-password-page'),
              (m) => m.ResetPasswordPage,
            ),
          },
          {
            path: 'admin/activate',
            lazy: page(
              () => import('../features/auth/activate-page'),
              (m) => m.ActivatePage,
            ),
          },
          {
            path: 'admin/company/signup',
            lazy: page(
              () => import('../features/auth/company-signup-page'),
              (m) => m.CompanySignupPage,
            ),
          },
          { path: 'admin/students/login', lazy: studentLoginPage },
          {
            path: 'admin/students/signup',
            lazy: page(
              () => import('../features/auth/student-signup-page'),
              (m) => m.StudentSignupPage,
            ),
          },
          { path: 'admin/students/forgotten-password', lazy: forgottenPasswordPage },
          { path: 'admin/students/request-forgotten-password', lazy: forgottenPasswordPage },
        ],
      },

      // Public pages for parents; the company is named by authhash.
      {
        Component: PublicLayout,
        children: [
          placeholder('booking', 'Event booking', 'Event booking'),
          placeholder('booking/checkout', 'Event checkout', 'Event booking'),
          placeholder('birthday-party/booking', 'Birthday party booking', 'Party booking'),
          placeholder('birthday-party/booking/checkout', 'Birthday party checkout', 'Party booking'),
          placeholder('birthday-party/waiver', 'Birthday party waiver', 'Waivers'),
          placeholder('birthday-party/update-guest', 'Update party guests', 'Waivers'),
          placeholder('event-booking/waiver', 'Event waiver', 'Waivers'),
          placeholder('events/invitation/confirm', 'Waitlist invitation', 'Waitlist'),
        ],
      },

      // Signed-in area: sidebar and top bar, staff or parent variant by role.
      {
        lazy: page(
          () => import('./layouts/signed-in-layout'),
          (m) => m.SignedInLayout,
        ),
        children: [
          {
            path: 'admin/dashboard',
            lazy: page(
              () => import('../features/dashboard/dashboard-page'),
              (m) => m.DashboardPage,
            ),
          },
          placeholder('admin/my-account', 'My Account', 'Accounts'),
          placeholder('admin/my-company', 'My Company', 'Accounts'),
          placeholder('admin/users/*', 'Users', 'Accounts'),
          placeholder('admin/students/profile', 'My Profile', 'Parent account'),
          placeholder('admin/students/children/*', 'My Children', 'Parent account'),
          placeholder('admin/students/my-booking/*', 'My Bookings', 'Parent account'),
          placeholder('admin/students/my-party-booking/*', 'My Party Bookings', 'Parent account'),
          {
            path: 'admin/:resource/*',
            lazy: page(
              () => import('../admin/resource-placeholder-page'),
              (m) => m.ResourcePlaceholderPage,
            ),
          },
        ],
      },

      { path: '*', Component: NotFoundPage },
    ],
  },
];
