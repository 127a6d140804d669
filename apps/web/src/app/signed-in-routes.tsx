import type { RouteObject } from 'react-router';
import { page } from './lazy-page';

const listScreen = page(
  () => import('../admin/screens/resource-list-page'),
  (m) => m.ResourceListPage,
);
const formScreen = page(
  () => import('../admin/screens/resource-form-page'),
  (m) => m.ResourceFormPage,
);
const viewScreen = page(
  () => import('../admin/screens/resource-view-page'),
  (m) => m.ResourceViewPage,
);

/**
 * The resource engine's generic screens (ARCHITECTURE.md "The admin resource engine"): one list,
 * one form (add and edit) and one view for every resource, top-level and nested at any depth.
 * Which resources nest under which is the server's (each meta's `children`, from the definitions'
 * `parent`), so no list of parents is kept here. Custom screens that actions open are registered
 * by name; static paths outrank the generic ones.
 */
function resourceRoutes(): RouteObject[] {
  return [
    {
      path: 'admin/events/:id/event-availability',
      lazy: page(
        () => import('../admin/screens/custom-screen-page'),
        (m) => m.EventAvailabilityPage,
      ),
    },
    // The terms' "From the school calendar" (an action without a row; with rows selected the
    // action runner puts the first row's id in the path, which the screen ignores).
    ...['admin/terms/term-calendar', 'admin/terms/:id/term-calendar'].map((path) => ({
      path,
      lazy: page(
        () => import('../features/terms/term-calendar-page'),
        (m) => m.TermCalendarPage,
      ),
    })),
    // Generating sessions of one class, or of a whole term; copying the previous term's classes
    // (actions without a row register the path with a row's id too, which the screen ignores).
    {
      path: 'admin/term-classes/:id/generate-sessions',
      lazy: page(
        () => import('../features/classes/generate-sessions-page'),
        (m) => m.GenerateSessionsPage,
      ),
    },
    // A class's students: enrol, transfer, withdraw, offer a place (the class's "Students" action).
    {
      path: 'admin/term-classes/:id/class-students',
      lazy: page(
        () => import('../features/class-students/class-students-page'),
        (m) => m.ClassStudentsPage,
      ),
    },
    ...['admin/term-classes/generate-term-sessions', 'admin/term-classes/:id/generate-term-sessions'].map(
      (path) => ({
        path,
        lazy: page(
          () => import('../features/classes/generate-sessions-page'),
          (m) => m.GenerateTermSessionsPage,
        ),
      }),
    ),
    ...['admin/term-classes/copy-previous-term', 'admin/term-classes/:id/copy-previous-term'].map((path) => ({
      path,
      lazy: page(
        () => import('../features/classes/copy-classes-page'),
        (m) => m.CopyClassesPage,
      ),
    })),
    // Terms › a term › "Roll over": re-enrolment into the next term (the terms' "Roll over" action).
    {
      path: 'admin/terms/:id/rollover',
      lazy: page(
        () => import('../features/rollover/rollover-page'),
        (m) => m.RolloverPage,
      ),
    },
    // Terms › a term › "Bill this term": the term billing run (the terms' "Bill this term" action).
    {
      path: 'admin/terms/:id/billing',
      lazy: page(
        () => import('../features/billing-run/billing-run-page'),
        (m) => m.BillingRunPage,
      ),
    },
    {
      path: 'admin/events/:eventId/bookings/:id/booking-waivers',
      lazy: page(
        () => import('../features/waivers/booking-waivers-page'),
        (m) => m.EventBookingWaiversPage,
      ),
    },
    // A coach's private lessons (the coaches' "Private lessons" action).
    {
      path: 'admin/coaches/:id/private-lessons',
      lazy: page(
        () => import('../features/private-lessons/staff-private-lessons-page'),
        (m) => m.StaffPrivateLessonsPage,
      ),
    },
    // Erasing a family on request (the parents' "Erase family" action; features/company-data).
    {
      path: 'admin/parents/:id/erase-family',
      lazy: page(
        () => import('../features/company-data/erase-family-page'),
        (m) => m.EraseFamilyPage,
      ),
    },
    // A family's account: balance, credit, saved card, invoices and statement (the parents' "Account" action).
    {
      path: 'admin/parents/:id/family-account',
      lazy: page(
        () => import('../features/statement/family-account-page'),
        (m) => m.FamilyAccountPage,
      ),
    },
    {
      path: 'admin/party-bookings/:id/party-waivers',
      lazy: page(
        () => import('../features/waivers/booking-waivers-page'),
        (m) => m.PartyBookingWaiversPage,
      ),
    },
    // A party booking's "Record balance payment": the record-a-payment page for that party.
    {
      path: 'admin/party-bookings/:id/record-payment',
      lazy: page(
        () => import('../features/record-payment/record-payment-page'),
        (m) => m.PartyBalancePaymentRedirect,
      ),
    },
    { path: 'admin/:resource', lazy: listScreen },
    { path: 'admin/:resource/add', lazy: formScreen },
    { path: 'admin/:resource/:id', lazy: viewScreen },
    { path: 'admin/:resource/:id/edit', lazy: formScreen },
    // A row's nested resources at any depth, or a custom screen (see nested-resource-page.tsx).
    {
      path: 'admin/:resource/:id/*',
      lazy: page(
        () => import('../admin/screens/nested-resource-page'),
        (m) => m.NestedResourcePage,
      ),
    },
  ];
}

/**
 * Signed-in area: sidebar and top bar, staff or parent variant by role. A chunk of its own, added
 * to the router on the first visit under /admin/ (routes.tsx `patchRoutesOnNavigation`), so the
 * public pages' first load does not carry these route objects (docs/performance.md, /booking JS).
 */
export const signedInRoutes: RouteObject = {
  id: 'signed-in',
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
    // The installation operator's companies (features/operators; decision 018).
    {
      path: 'admin/customers',
      lazy: page(
        () => import('../features/operators/customers-page'),
        (m) => m.CustomersPage,
      ),
    },
    {
      path: 'admin/customers/:id',
      lazy: page(
        () => import('../features/operators/customer-page'),
        (m) => m.CustomerPage,
      ),
    },
    {
      path: 'admin/timetable',
      lazy: page(
        () => import('../features/timetable/timetable-page'),
        (m) => m.TimetablePage,
      ),
    },
    // The company's plan and modules (platform/installation).
    {
      path: 'admin/subscription',
      lazy: page(
        () => import('../features/plans/subscription-page'),
        (m) => m.SubscriptionPage,
      ),
    },
    {
      path: 'admin/modules',
      lazy: page(
        () => import('../features/modules/modules-page'),
        (m) => m.ModulesPage,
      ),
    },
    {
      path: 'admin/private-lessons',
      lazy: page(
        () => import('../features/private-lessons/staff-private-lessons-page'),
        (m) => m.StaffPrivateLessonsPage,
      ),
    },
    {
      path: 'admin/uniform-orders',
      lazy: page(
        () => import('../features/uniform-orders/staff-uniform-orders-page'),
        (m) => m.StaffUniformOrdersPage,
      ),
    },
    {
      path: 'admin/cover',
      lazy: page(
        () => import('../features/coaches/cover-page'),
        (m) => m.CoverPage,
      ),
    },
    {
      path: 'admin/registration-anomalies',
      lazy: page(
        () => import('../features/registration-forms/anomalies-page'),
        (m) => m.AnomaliesPage,
      ),
    },
    // Staff record a cash, bank transfer, EFTPOS or voucher payment (?invoice, ?party_booking, ?family).
    {
      path: 'admin/payments/record',
      lazy: page(
        () => import('../features/record-payment/record-payment-page'),
        (m) => m.RecordPaymentPage,
      ),
    },
    {
      path: 'admin/students/invite',
      lazy: page(
        () => import('../features/accounts/invite-family-page'),
        (m) => m.InviteFamilyPage,
      ),
    },
    // Staff: every child across families, and one child's screen (issue 17).
    {
      path: 'admin/students',
      lazy: page(
        () => import('../features/student-directory/students-page'),
        (m) => m.StudentsPage,
      ),
    },
    // Merging duplicate families and children (features/merge); before :childId.
    {
      path: 'admin/students/merge',
      lazy: page(
        () => import('../features/merge/merge-page'),
        (m) => m.MergePage,
      ),
    },
    {
      path: 'admin/students/:childId',
      lazy: page(
        () => import('../features/student-directory/student-page'),
        (m) => m.StudentPage,
      ),
    },
    // Download all the company's data (features/company-data, issue 18).
    {
      path: 'admin/company-data',
      lazy: page(
        () => import('../features/company-data/company-data-page'),
        (m) => m.CompanyDataPage,
      ),
    },
    // Import families from another system (features/import, issue 17).
    {
      path: 'admin/import',
      lazy: page(
        () => import('../features/import/import-page'),
        (m) => m.ImportPage,
      ),
    },
    {
      path: 'admin/my-account',
      lazy: page(
        () => import('../features/accounts/my-account-page'),
        (m) => m.MyAccountPage,
      ),
    },
    {
      path: 'admin/invoices',
      lazy: page(
        () => import('../features/invoices/invoices-page'),
        (m) => m.InvoicesPage,
      ),
    },
    {
      path: 'admin/invoices/new',
      lazy: page(
        () => import('../features/invoices/new-invoice-page'),
        (m) => m.NewInvoicePage,
      ),
    },
    {
      path: 'admin/invoices/:id',
      lazy: page(
        () => import('../features/invoices/invoice-page'),
        (m) => m.InvoicePage,
      ),
    },
    {
      path: 'admin/integrations/accounting',
      lazy: page(
        () => import('../features/accounting/accounting-page'),
        (m) => m.AccountingPage,
      ),
    },
    {
      path: 'admin/integrations/google',
      lazy: page(
        () => import('../features/calendar-feeds/google-page'),
        (m) => m.GooglePage,
      ),
    },
    {
      path: 'admin/integrations',
      lazy: page(
        () => import('../features/integrations/integrations-page'),
        (m) => m.IntegrationsPage,
      ),
    },
    {
      path: 'admin/integrations/payments',
      lazy: page(
        () => import('../features/payment-connections/payment-connections-page'),
        (m) => m.PaymentConnectionsPage,
      ),
    },
    {
      path: 'admin/integrations/mailing',
      lazy: page(
        () => import('../features/integrations/mailing-page'),
        (m) => m.MailingPage,
      ),
    },
    {
      path: 'admin/billing-profile',
      lazy: page(
        () => import('../features/billing-profile/billing-profile-page'),
        (m) => m.BillingProfilePage,
      ),
    },
    // System emails and the look of every email (features/email-settings).
    {
      path: 'admin/system-emails',
      lazy: page(
        () => import('../features/email-settings/system-emails-page'),
        (m) => m.SystemEmailsPage,
      ),
    },
    {
      path: 'admin/system-emails/:kind',
      lazy: page(
        () => import('../features/email-settings/system-email-page'),
        (m) => m.SystemEmailPage,
      ),
    },
    {
      path: 'admin/settings/emails',
      lazy: page(
        () => import('../features/email-settings/email-settings-page'),
        (m) => m.EmailSettingsPage,
      ),
    },
    {
      path: 'admin/my-company',
      lazy: page(
        () => import('../features/accounts/my-company-page'),
        (m) => m.MyCompanyPage,
      ),
    },
    {
      path: 'admin/users',
      lazy: page(
        () => import('../features/accounts/users-page'),
        (m) => m.UsersPage,
      ),
    },
    {
      path: 'admin/users/:id',
      lazy: page(
        () => import('../features/accounts/user-edit-page'),
        (m) => m.UserEditPage,
      ),
    },
    {
      path: 'admin/mail',
      lazy: page(
        () => import('../features/accounts/mail-page'),
        (m) => m.MailPage,
      ),
    },
    // Reminder rules (features/reminders).
    {
      path: 'admin/reminder-emails',
      lazy: page(
        () => import('../features/reminders/reminder-emails-page'),
        (m) => m.ReminderEmailsPage,
      ),
    },
    // Flags on children and families; staff and family tasks (features/flags, features/tasks).
    {
      path: 'admin/flagged',
      lazy: page(
        () => import('../features/flags/flagged-page'),
        (m) => m.FlaggedPage,
      ),
    },
    // Mass mail: the list, compose and each mail's progress (features/communications).
    {
      path: 'admin/communications',
      lazy: page(
        () => import('../features/communications/mass-mails-page'),
        (m) => m.MassMailsPage,
      ),
    },
    {
      path: 'admin/communications/new',
      lazy: page(
        () => import('../features/communications/mass-mail-compose-page'),
        (m) => m.MassMailComposePage,
      ),
    },
    {
      path: 'admin/communications/:id',
      lazy: page(
        () => import('../features/communications/mass-mail-page'),
        (m) => m.MassMailPage,
      ),
    },
    {
      path: 'admin/tasks',
      lazy: page(
        () => import('../features/tasks/tasks-page'),
        (m) => m.TasksPage,
      ),
    },
    {
      path: 'admin/students/tasks',
      lazy: page(
        () => import('../features/tasks/family-tasks-page'),
        (m) => m.FamilyTasksPage,
      ),
    },
    // Enquiries and leads, and the company's sources and stages (features/crm).
    {
      path: 'admin/contacts',
      lazy: page(
        () => import('../features/crm/contacts-page'),
        (m) => m.ContactsPage,
      ),
    },
    {
      path: 'admin/contacts/new',
      lazy: page(
        () => import('../features/crm/contact-page'),
        (m) => m.NewContactPage,
      ),
    },
    {
      path: 'admin/contacts/:id',
      lazy: page(
        () => import('../features/crm/contact-page'),
        (m) => m.ContactPage,
      ),
    },
    {
      path: 'admin/settings/crm',
      lazy: page(
        () => import('../features/crm/crm-settings-page'),
        (m) => m.CrmSettingsPage,
      ),
    },
    {
      path: 'admin/students/calendar',
      lazy: page(
        () => import('../features/calendar-feeds/family-calendar-page'),
        (m) => m.FamilyCalendarPage,
      ),
    },
    {
      path: 'admin/roll',
      lazy: page(
        () => import('../features/roll/roll-day-page'),
        (m) => m.RollDayPage,
      ),
    },
    {
      path: 'admin/roll/:sessionId',
      lazy: page(
        () => import('../features/roll/roll-page'),
        (m) => m.RollPage,
      ),
    },
    {
      path: 'admin/reports/daily-roll',
      lazy: page(
        () => import('../features/roll/daily-roll-report-page'),
        (m) => m.DailyRollReportPage,
      ),
    },
    {
      path: 'admin/reports/birthday-parties',
      lazy: page(
        () => import('../features/reports/party-report-page'),
        (m) => m.PartyReportPage,
      ),
    },
    {
      path: 'admin/reports/vouchers',
      lazy: page(
        () => import('../features/reports/vouchers-report-page'),
        (m) => m.VouchersReportPage,
      ),
    },
    // Every other report of the server's report pattern, drawn from its meta.
    {
      path: 'admin/reports/:report',
      lazy: page(
        () => import('../features/reports/report-page'),
        (m) => m.ReportPage,
      ),
    },
    {
      path: 'admin/mail/:id',
      lazy: page(
        () => import('../features/accounts/mail-message-page'),
        (m) => m.MailMessagePage,
      ),
    },

    // The parent's account (role student).
    {
      path: 'admin/students/profile',
      lazy: page(
        () => import('../features/students/profile-page'),
        (m) => m.ProfilePage,
      ),
    },
    {
      path: 'admin/students/children',
      lazy: page(
        () => import('../features/students/children-page'),
        (m) => m.ChildrenPage,
      ),
    },
    {
      path: 'admin/students/children/add',
      lazy: page(
        () => import('../features/students/child-form-page'),
        (m) => m.ChildFormPage,
      ),
    },
    {
      path: 'admin/students/children/:id',
      lazy: page(
        () => import('../features/students/child-form-page'),
        (m) => m.ChildFormPage,
      ),
    },
    {
      path: 'admin/students/my-booking',
      lazy: page(
        () => import('../features/students/my-bookings-page'),
        (m) => m.MyBookingsPage,
      ),
    },
    {
      path: 'admin/students/classes',
      lazy: page(
        () => import('../features/my-classes/my-classes-page'),
        (m) => m.MyClassesPage,
      ),
    },
    {
      path: 'admin/students/my-party-booking',
      lazy: page(
        () => import('../features/students/my-party-bookings-page'),
        (m) => m.MyPartyBookingsPage,
      ),
    },
    {
      path: 'admin/students/private-classes',
      lazy: page(
        () => import('../features/private-lessons/private-classes-page'),
        (m) => m.PrivateClassesPage,
      ),
    },
    {
      path: 'admin/students/uniforms',
      lazy: page(
        () => import('../features/uniform-orders/uniforms-page'),
        (m) => m.UniformsPage,
      ),
    },
    {
      path: 'admin/students/re-enroll',
      lazy: page(
        () => import('../features/re-enrol/re-enrol-page'),
        (m) => m.ReEnrolPage,
      ),
    },
    {
      path: 'admin/students/registrations',
      lazy: page(
        () => import('../features/registration/my-enrolments-page'),
        (m) => m.MyEnrolmentsPage,
      ),
    },
    {
      path: 'admin/students/invoices',
      lazy: page(
        () => import('../features/statement/my-invoices-page'),
        (m) => m.MyInvoicesPage,
      ),
    },
    // SPEC student/payment: a parent pays their invoice (?invoice=<id>), in full or by a payment plan.
    {
      path: 'admin/student/payment',
      lazy: page(
        () => import('../features/invoice-payment/invoice-payment-page'),
        (m) => m.InvoicePaymentPage,
      ),
    },
    {
      path: 'admin/students/payments',
      lazy: page(
        () => import('../features/students/payments-page'),
        (m) => m.PaymentsPage,
      ),
    },
    // The saved card and autopay; failure mails link here (SAVED_CARD_PATH).
    {
      path: 'admin/students/card',
      lazy: page(
        () => import('../features/saved-card/saved-card-page'),
        (m) => m.SavedCardPage,
      ),
    },
    {
      path: 'admin/students/waiver',
      lazy: page(
        () => import('../features/students/waivers-page'),
        (m) => m.MyWaiversPage,
      ),
    },
    ...resourceRoutes(),
  ],
};
