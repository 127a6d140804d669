import { errorResponse, type FormResponse, formResponse } from '@tumble/contracts/http';
import { termCalendarResponse } from '@tumble/contracts/term-calendar';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth.ts';
import { parseForm } from '../../platform/forms.ts';
import { type CalendarYear, type Region, regionNames } from './calendar/school-terms.ts';
import { calendarTerm, calendarTerms, isCalendarYear, isRegion } from './calendar/term-calendar.ts';
import { createTermFromCalendar } from './terms.service.ts';

const tags = ['admin: terms'];

const chooseRegion = 'Please choose a state or territory.';
const chooseYear = 'Please choose 2026 or 2027.';
const chooseTerm = 'Please choose Term 1, 2, 3 or 4.';

/** The calendar form's fields, with the message shown against each. */
const calendarChoice = z.object({
  region: z.custom<Region>(isRegion, chooseRegion),
  year: z.coerce.number(chooseYear).pipe(z.custom<CalendarYear>(isCalendarYear, chooseYear)),
  term: z.coerce.number(chooseTerm).int(chooseTerm).min(1, chooseTerm).max(4, chooseTerm),
});

/** The built-in school calendar: what it offers, and a term made from it in one step. */
export const termCalendarRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/admin/term-calendar',
    {
      schema: { tags, response: { 200: termCalendarResponse } },
      config: { access: 'classes.read' },
    },
    async () => ({
      terms: calendarTerms().map((t) => ({
        region: t.region,
        region_name: regionNames[t.region],
        year: t.year,
        term: t.term,
        name: t.name,
        start_date: t.startDate,
        end_date: t.endDate,
        confirmed: t.confirmed,
        closures: t.closures.map((c) => ({ start_date: c.startDate, end_date: c.endDate, reason: c.reason })),
      })),
    }),
  );

  app.post(
    '/api/v1/admin/term-calendar/create',
    {
      schema: {
        tags,
        body: z.record(z.string(), z.unknown()),
        response: { 200: formResponse, 400: errorResponse },
      },
      config: { access: 'classes.write' },
    },
    async (request): Promise<FormResponse> => {
      const { tenant } = requireAuth(request);
      const parsed = parseForm(calendarChoice, request.body);
      if (!parsed.ok) return parsed.response;
      const { region, year, term } = parsed.data;
      const offer = calendarTerm(region, year, term);
      const created = await createTermFromCalendar(app.deps.database.db, tenant, offer);
      if ('refused' in created)
        return {
          valid: false,
          error: {
            html_message: created.refused,
            element: [{ name: 'term', messages: [created.refused] }],
          },
        };
      const closures = offer.closures.length;
      return {
        valid: true,
        redirect: `/admin/terms/${created.id}/closures`,
        info: {
          title: 'Term created',
          message: `${offer.name} (${region}) created with ${closures} ${closures === 1 ? 'closure' : 'closures'}.`,
        },
      };
    },
  );
};
