import { Navigate, type PatchRoutesOnNavigationFunction, type RouteObject } from 'react-router';
import { ServerShell } from '../components/server-shell';
import { AdminIndexRedirect } from './admin-index-redirect';
import { AuthLayout } from './layouts/auth-layout';
import { PublicLayout } from './layouts/public-layout';
import { page } from './lazy-page';
import { NotFoundPage } from './not-found-page';
import { RouteErrorPage } from './route-error-page';

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
    id: 'root',
    path: '/',
    // The server's first HTML of a public page (its header) stays until the page's code is in.
    HydrateFallback: ServerShell,
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
          // A family invited by staff chooses a password and goes on to the registration form.
          {
            path: 'admin/students/invite/accept',
            lazy: page(
              () => import('../features/accounts/invite-accept-page'),
              (m) => m.InviteAcceptPage,
            ),
          },
          {
            path: 'admin/students/signup',
            lazy: page(
              () => import('../features/auth/student-signup-page'),
              (m) => m.StudentSignupPage,
            ),
          },
          { path: 'admin/students/forgotten-password', lazy: forgottenPasswordPage },
          // The unsubscribe link in marketing mail (features/communications).
          {
            path: 'unsubscribe/:token',
            lazy: page(
              () => import('../features/communications/unsubscribe-page'),
              (m) => m.UnsubscribePage,
            ),
          },
          { path: 'admin/students/request-forgotten-password', lazy: forgottenPasswordPage },
        ],
      },

      // Public pages for parents; the company is named by authhash.
      {
        Component: PublicLayout,
        children: [
          {
            path: 'booking',
            lazy: page(
              () => import('../features/booking/booking-page'),
              (m) => m.BookingPage,
            ),
          },
          {
            path: 'booking/checkout',
            lazy: page(
              () => import('../features/booking/checkout-page'),
              (m) => m.CheckoutPage,
            ),
          },
          {
            path: 'birthday-party/booking',
            lazy: page(
              () => import('../features/party/party-booking-page'),
              (m) => m.PartyBookingPage,
            ),
          },
          {
            path: 'birthday-party/booking/checkout',
            lazy: page(
              () => import('../features/party/party-checkout-page'),
              (m) => m.PartyCheckoutPage,
            ),
          },
          {
            path: 'birthday-party/waiver',
            lazy: page(
              () => import('../features/waivers/waiver-page'),
              (m) => m.PartyWaiverPage,
            ),
          },
          {
            path: 'birthday-party/update-guest',
            lazy: page(
              () => import('../features/party/update-guest-page'),
              (m) => m.UpdateGuestPage,
            ),
          },
          {
            path: 'event-booking/waiver',
            lazy: page(
              () => import('../features/waivers/waiver-page'),
              (m) => m.EventWaiverPage,
            ),
          },
          {
            path: 'registration/waiver',
            lazy: page(
              () => import('../features/registration/waiver-page'),
              (m) => m.EnrolmentWaiverPage,
            ),
          },
          {
            path: 'events/invitation/confirm',
            lazy: page(
              () => import('../features/booking/invitation-page'),
              (m) => m.InvitationPage,
            ),
          },
          {
            path: 'registration/accept',
            lazy: page(
              () => import('../features/registration/accept-page'),
              (m) => m.AcceptPage,
            ),
          },
          {
            path: 'registration',
            lazy: page(
              () => import('../features/registration/registration-page'),
              (m) => m.RegistrationPage,
            ),
          },
          // The invoice mail's PDF link: a parent signs in, then the PDF downloads.
          {
            path: 'admin/students/invoices/:id/pdf',
            lazy: page(
              () => import('../features/invoices/invoice-pdf-page'),
              (m) => m.InvoicePdfPage,
            ),
          },
          {
            path: 'payments/test',
            lazy: page(
              () => import('../features/payments/test-card-page'),
              (m) => m.TestCardPage,
            ),
          },
          {
            path: 'payments/square-card',
            lazy: page(
              () => import('../features/payments/square-card-page'),
              (m) => m.SquareCardPage,
            ),
          },
        ],
      },

      { path: '*', Component: NotFoundPage },
    ],
  },
];

/**
 * The signed-in area's route table (signed-in-routes.tsx) is a chunk of its own: the router asks
 * for it when a path under /admin/ matches nothing but the not-found route (or only routes with
 * parameters), and it is added once under the root route (the `id` makes patching it again a
 * no-op). Both routers pass it: app.tsx and the tests' renderApp.
 */
export const patchRoutesOnNavigation: PatchRoutesOnNavigationFunction = async ({ path, patch }) => {
  if (!path.startsWith('/admin/')) return;
  const { signedInRoutes } = await import('./signed-in-routes');
  patch('root', [signedInRoutes]);
};
