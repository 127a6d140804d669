import { existsSync } from 'node:fs';
import path from 'node:path';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { accountsRoutes } from './features/accounts/accounts.routes.ts';
import { adminAccountRoutes } from './features/accounts/admin.routes.ts';
import { inviteRoutes } from './features/accounts/invite.routes.ts';
import { parentsResource } from './features/accounts/parents.resource.ts';
import { staffResource } from './features/accounts/staff.resource.ts';
import { accountingRoutes } from './features/billing/accounting/accounting.routes.ts';
import { billingResources } from './features/billing/billing.resource.ts';
import { billingProfileRoutes } from './features/billing/billing-profile.routes.ts';
import { billingRunRoutes } from './features/billing/billing-run.routes.ts';
import { cancellationRoutes } from './features/billing/cancellation.routes.ts';
import { cancellationPoliciesResource } from './features/billing/cancellation-policies.resource.ts';
import { invoicePaymentRoutes } from './features/billing/invoice-payment.routes.ts';
import { invoiceRoutes } from './features/billing/invoices.routes.ts';
import { paymentsResource } from './features/billing/payments.resource.ts';
import { recordPaymentRoutes } from './features/billing/record-payment.routes.ts';
import { refundResources } from './features/billing/refunds.resource.ts';
import { settleRefund } from './features/billing/refunds.service.ts';
import { savedCardRoutes } from './features/billing/saved-card.routes.ts';
import { saveCardFromSetup } from './features/billing/saved-card.service.ts';
import { statementRoutes } from './features/billing/statement.routes.ts';
import { availabilityRoutes } from './features/bookings/availability.routes.ts';
import { bookingResources } from './features/bookings/bookings.resource.ts';
import { bookingRoutes } from './features/bookings/bookings.routes.ts';
import { calendarFeedRoutes } from './features/calendar-feeds/feeds.routes.ts';
import { registerSaleKinds } from './features/checkout/kinds.ts';
import { adjustmentResources } from './features/classes/adjustments.resource.ts';
import { classStudentRoutes } from './features/classes/class-students.routes.ts';
import { classWaitlistRoutes } from './features/classes/class-waitlist.routes.ts';
import { enrolmentQueueRoutes } from './features/classes/enrolment-queue.routes.ts';
import { makeupRoutes } from './features/classes/makeups.routes.ts';
import { registrationRoutes } from './features/classes/registration.routes.ts';
import { rollRoutes } from './features/classes/roll.routes.ts';
import { rolloverRoutes } from './features/classes/rollover.routes.ts';
import { sessionRoutes } from './features/classes/sessions.routes.ts';
import { termClassResources } from './features/classes/term-classes.resource.ts';
import { termResources } from './features/classes/terms.resource.ts';
import { termCalendarRoutes } from './features/classes/terms.routes.ts';
import { timetableRoutes } from './features/classes/timetable.routes.ts';
import { coachResources } from './features/coaches/coaches.resource.ts';
import { coachRoutes } from './features/coaches/coaches.routes.ts';
import { privateLessonResources } from './features/coaches/private-lessons.resource.ts';
import { privateLessonRoutes } from './features/coaches/private-lessons.routes.ts';
import { mailchimpRoutes } from './features/communications/mailchimp/mailchimp.routes.ts';
import { massMailRoutes } from './features/communications/mass-mail.routes.ts';
import { reminderRoutes } from './features/communications/reminders/reminders.routes.ts';
import { unsubscribeRoutes } from './features/communications/unsubscribe.routes.ts';
import { companyDataRoutes } from './features/company-data/company-data.routes.ts';
import { crmRoutes } from './features/crm/crm.routes.ts';
import { dashboardRoutes } from './features/dashboard/dashboard.routes.ts';
import { eventResources } from './features/events/events.resource.ts';
import { healthRoutes } from './features/health/health.routes.ts';
import { importRoutes } from './features/import/import.routes.ts';
import { integrationsRoutes } from './features/integrations/integrations.routes.ts';
import { operatorRoutes } from './features/operators/operators.routes.ts';
import { partyResources } from './features/parties/parties.resource.ts';
import { partyRoutes } from './features/parties/party.routes.ts';
import { partyBookingResources } from './features/parties/party-bookings.resource.ts';
import { partyReportRoutes } from './features/parties/party-reports.routes.ts';
import { publicPageHtml, sendPublicPage } from './features/public-pages/public-pages.ts';
import { anomalyRoutes } from './features/registration/anomalies.routes.ts';
import { registrationResources } from './features/registration/registration.resource.ts';
import { registrationEmbed } from './features/registration/registration-embed.routes.ts';
import { enrollmentComparisonRoutes } from './features/reports/enrollment-comparison.report.ts';
import { moneyReportRoutes } from './features/reports/money-reports.routes.ts';
import { trialConversionsRoutes } from './features/reports/trial-conversions.report.ts';
import { emailSettingsRoutes } from './features/settings/email-settings.routes.ts';
import { accountRoutes } from './features/students/account.routes.ts';
import { flagsResource } from './features/students/flags.resource.ts';
import { flagRoutes } from './features/students/flags.routes.ts';
import { mergeRoutes } from './features/students/merge.routes.ts';
import { studentDirectoryRoutes } from './features/students/student-directory.routes.ts';
import { studentRoutes } from './features/students/students.routes.ts';
import { taskListResources } from './features/tasks/task-lists.resource.ts';
import { taskRoutes } from './features/tasks/tasks.routes.ts';
import { uniformOrderRoutes } from './features/uniforms/uniform-orders.routes.ts';
import { uniformResources } from './features/uniforms/uniforms.resource.ts';
import { venueResources } from './features/venues/venues.resource.ts';
import { waiverRoutes } from './features/waivers/waiver.routes.ts';
import { waiverResources } from './features/waivers/waivers.resource.ts';
import { auditLogResource } from './platform/audit/audit.resource.ts';
import { authPlugin } from './platform/auth.ts';
import { databaseTrouble } from './platform/db-errors.ts';
import type { AppDeps } from './platform/deps.ts';
import { AppError } from './platform/errors.ts';
import { inputGuard, inputOutOfRange } from './platform/input-guard.ts';
import { installationResources } from './platform/installation/installation.resource.ts';
import { modulesRoutes } from './platform/installation/modules.routes.ts';
import {
  subscriptionRoutes,
  subscriptionWebhookRoutes,
} from './platform/installation/subscriptions.routes.ts';
import { modulesPlugin } from './platform/modules.ts';
import { paymentConnectionRoutes } from './platform/payments/connections/connections.routes.ts';
import { onCardSetupNotice, onRefundNotice } from './platform/payments/notices.ts';
import { paymentRoutes } from './platform/payments/payments.routes.ts';
import { installPublicCache } from './platform/public-cache.ts';
import { resourceRoutes } from './platform/resources/engine.routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}

/** Paths the API owns (calendar feeds too: public, so rate-limited); everything else is the SPA. */
const API_PREFIXES = ['/api', '/rest', '/integrations', '/feeds'];
const isApiPath = (url: string) =>
  API_PREFIXES.some((p) => url === p || url.startsWith(`${p}/`) || url.startsWith(`${p}?`));

/** Origins the payment providers' embedded forms load from (PCI DSS SAQ A: nothing else may run). */
// Stripe.js; Square's Web Payments SDK (our Square card page, /payments/square-card).
const SQUARE_WEB_SDK_ORIGINS = ['https://web.squarecdn.com', 'https://sandbox.web.squarecdn.com'];
const PAYMENT_SCRIPT_ORIGINS = ['https://js.stripe.com', ...SQUARE_WEB_SDK_ORIGINS];
const PAYMENT_FRAME_ORIGINS = [
  'https://js.stripe.com',
  'https://checkout.stripe.com',
  'https://hooks.stripe.com',
  ...SQUARE_WEB_SDK_ORIGINS,
];
const PAYMENT_CONNECT_ORIGINS = [
  'https://api.stripe.com',
  'https://checkout.stripe.com',
  ...SQUARE_WEB_SDK_ORIGINS,
  'https://pci-connect.squareup.com',
  'https://pci-connect.squareupsandbox.com',
];

/**
 * Builds the whole HTTP application without listening, so tests can `inject` requests.
 * Every feature's routes are registered here.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  registerSaleKinds();
  // A finished card setup (webhook, test card page) saves the card on the family's account.
  onCardSetupNotice(saveCardFromSetup);
  onRefundNotice(settleRefund);
  const app = Fastify({
    logger:
      config.LOG_LEVEL === 'silent'
        ? false
        : { level: config.LOG_LEVEL, redact: ['req.headers.authorization', 'req.headers.cookie'] },
    // Believe X-Forwarded-For only for the configured number of proxies in front of us.
    trustProxy: (_address: string, hop: number) => hop < config.TRUST_PROXY_HOPS,
    bodyLimit: 1_048_576,
  }).withTypeProvider<ZodTypeProvider>();
  app.decorate('deps', deps);
  // Public reads cached per company, invalidated by the database's notifications (decision 021).
  installPublicCache(app, deps.database);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...PAYMENT_SCRIPT_ORIGINS],
        frameSrc: ["'self'", ...PAYMENT_FRAME_ORIGINS],
        connectSrc: ["'self'", ...PAYMENT_CONNECT_ORIGINS],
        imgSrc: ["'self'", 'data:', 'blob:', 'https://*.stripe.com'],
        // Mantine sets inline style attributes; no inline scripts are allowed.
        styleSrc: ["'self'", "'unsafe-inline'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(multipart, { limits: { fileSize: 10 * 1024 * 1024, files: 1 } });
  await app.register(rateLimit, {
    global: true,
    max: config.RATE_LIMIT_PER_MINUTE,
    timeWindow: '1 minute',
    // The SPA's files are not work for the server; a page load is a dozen of them.
    allowList: (request) => !isApiPath(request.url),
  });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Tumble API', version: '1.0.0', description: 'Classes, events and birthday parties.' },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  app.setErrorHandler((error, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const field = first?.instancePath.replace(/^\//, '').replaceAll('/', '.');
      return reply
        .code(400)
        .send({ message: first ? `${field ? `${field}: ` : ''}${first.message}` : 'Invalid request.' });
    }
    if (error instanceof ZodError) {
      return reply.code(400).send({ message: error.issues[0]?.message ?? 'Invalid request.' });
    }
    if (error instanceof AppError) {
      return reply
        .code(error.statusCode)
        .headers(error.headers)
        .send({ message: error.message, ...(error.reason ? { reason: error.reason } : {}) });
    }
    const outOfRange = inputOutOfRange(error);
    if (outOfRange) return reply.code(400).send({ message: outOfRange.message });
    const trouble = databaseTrouble(error);
    if (trouble) {
      request.log.warn({ err: error }, 'database unavailable or busy');
      return reply.code(trouble.statusCode).headers(trouble.headers).send({ message: trouble.message });
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      return reply.code(status).send({ message: (error as Error).message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ message: 'Something went wrong. Please try again.' });
  });

  // First: the session and module checks below look up what the query and headers name.
  await app.register(inputGuard);
  await app.register(authPlugin);
  // After the session is known: a module the company does not have answers 404 (platform/modules.ts).
  await app.register(modulesPlugin);
  await app.register(modulesRoutes);
  await app.register(subscriptionRoutes);
  await app.register(subscriptionWebhookRoutes);
  await app.register(healthRoutes);
  await app.register(accountsRoutes);
  await app.register(adminAccountRoutes);
  await app.register(inviteRoutes);
  await app.register(importRoutes);
  await app.register(bookingRoutes);
  await app.register(availabilityRoutes);
  await app.register(partyRoutes);
  await app.register(partyReportRoutes);
  await app.register(trialConversionsRoutes);
  await app.register(enrollmentComparisonRoutes);
  await app.register(moneyReportRoutes);
  await app.register(timetableRoutes);
  await app.register(calendarFeedRoutes);
  await app.register(rollRoutes);
  await app.register(registrationRoutes);
  await app.register(classWaitlistRoutes);
  await app.register(rolloverRoutes);
  await app.register(classStudentRoutes);
  await app.register(makeupRoutes);
  await app.register(sessionRoutes);
  await app.register(termCalendarRoutes);
  await app.register(enrolmentQueueRoutes);
  await app.register(studentRoutes);
  await app.register(studentDirectoryRoutes);
  await app.register(accountRoutes);
  await app.register(flagRoutes);
  await app.register(mergeRoutes);
  await app.register(taskRoutes);
  await app.register(crmRoutes);
  await app.register(statementRoutes);
  await app.register(savedCardRoutes);
  await app.register(cancellationRoutes);
  await app.register(billingProfileRoutes);
  await app.register(invoiceRoutes);
  await app.register(waiverRoutes);
  await app.register(accountingRoutes);
  await app.register(mailchimpRoutes);
  await app.register(integrationsRoutes);
  await app.register(registrationEmbed);
  await app.register(anomalyRoutes);
  await app.register(billingRunRoutes);
  await app.register(paymentRoutes);
  await app.register(paymentConnectionRoutes);
  await app.register(coachRoutes);
  await app.register(dashboardRoutes);
  await app.register(privateLessonRoutes);
  await app.register(uniformOrderRoutes);
  await app.register(recordPaymentRoutes);
  await app.register(invoicePaymentRoutes);
  await app.register(emailSettingsRoutes);
  await app.register(companyDataRoutes);
  await app.register(massMailRoutes);
  await app.register(unsubscribeRoutes);
  await app.register(reminderRoutes);
  await app.register(operatorRoutes);
  await app.register(
    resourceRoutes([
      ...venueResources,
      ...eventResources,
      ...termResources,
      ...termClassResources,
      ...adjustmentResources,
      ...uniformResources,
      flagsResource,
      ...taskListResources,
      parentsResource,
      staffResource,
      ...coachResources,
      ...privateLessonResources,
      ...bookingResources,
      paymentsResource,
      ...refundResources,
      ...billingResources,
      cancellationPoliciesResource,
      ...partyResources,
      ...partyBookingResources,
      ...waiverResources,
      ...registrationResources,
      auditLogResource,
      ...installationResources,
    ]),
  );

  const indexHtml = path.join(config.WEB_DIST, 'index.html');
  if (existsSync(indexHtml)) {
    await app.register(fastifyStatic, {
      root: config.WEB_DIST,
      // The build writes .br and .gz beside each file (apps/web/vite.config.ts): sent when accepted.
      preCompressed: true,
      // Hashed asset names never change content: cache them for a year; index.html always revalidates.
      // (send's own Cache-Control, `public, max-age=0`, would replace the one set here.)
      cacheControl: false,
      setHeaders: (res, filePath) => {
        // The body depends on Accept-Encoding (preCompressed): shared caches must keep them apart.
        res.setHeader('vary', 'accept-encoding');
        res.setHeader(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    if (isApiPath(request.url) || !['GET', 'HEAD'].includes(request.method) || !existsSync(indexHtml)) {
      return reply.code(404).send({ message: 'Not found.' });
    }
    // The public booking pages come with their header already in the HTML (issue 19, LCP).
    const page = await publicPageHtml(app, request, indexHtml);
    if (page) return sendPublicPage(request, reply, page);
    // SPA fallback: the React router decides, including its own not-found page.
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });

  return app;
}
