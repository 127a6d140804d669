import { count, eq } from 'drizzle-orm';
import { queues } from '../../platform/jobs.ts';
import { defineResource } from '../../platform/resources/define.ts';
import { field } from '../../platform/resources/fields.ts';
import { compact, weekdayOptions } from '../../platform/resources/options.ts';
import { classEnrolments, classSessions, classTypes, termClasses, terms } from './classes.tables.ts';
import { minutesOf } from './session-dates.ts';
import {
  cancelSession,
  classDates,
  coachProblems,
  moveSession,
  termClosedProblem,
} from './sessions.service.ts';

const classes = { read: 'classes.read', write: 'classes.write' } as const;

const ageHelp = (edge: string) => `In months (5 years is 60). Empty: the class type's ${edge} age.`;

/**
 * A class running weekly in a term. Its sessions are generated from it (sessions.service.ts,
 * the "Generate sessions" screen); a change here reaches them when they are generated again.
 */
export const termClassesResource = defineResource({
  name: 'term-classes',
  label: 'Classes',
  nav: { group: 'Classes', icon: 'calendar' },
  singular: 'Class',
  table: termClasses,
  titleField: 'name',
  fields: {
    name: field.text('Name', { required: true, max: 120, help: 'e.g. Tuesday 4pm Kinder Gym' }),
    term_id: field.reference('Term', 'terms', { required: true }),
    class_type_id: field.reference('Class type', 'class-types', { required: true }),
    weekday: field.select('Day', weekdayOptions, { required: true }),
    start_time: field.time('Starts at', { required: true }),
    duration_minutes: field.number('Duration (minutes)', {
      min: 5,
      max: 600,
      help: "Empty: the class type's default duration",
    }),
    venue_id: field.reference('Venue', 'venues'),
    room_id: field.reference('Room', 'rooms'),
    lead_coach_id: field.reference('Lead coach', 'coaches'),
    assistant_coach_ids: field.references('Assistant coaches', 'coaches'),
    capacity: field.number('Capacity', {
      min: 1,
      max: 500,
      help: "Children per session. Empty: the class type's default capacity",
    }),
    age_min_months: field.number('Age from (months)', { min: 0, max: 1200, help: ageHelp('lower') }),
    age_max_months: field.number('Age to (months)', { min: 0, max: 1200, help: ageHelp('upper') }),
    level: field.text('Level', { max: 60, help: "Empty: the class type's level" }),
    price_override: field.money('Price', { help: "Empty: the class type's price" }),
    status: field.select(
      'Status',
      [
        { value: 'active', label: 'Running' },
        { value: 'cancelled', label: 'Cancelled' },
      ],
      { required: true, default: 'active' },
    ),
  },
  list: {
    columns: ['name', 'term_id', 'weekday', 'start_time', 'room_id', 'lead_coach_id'],
    search: ['name'],
    filters: ['term_id', 'class_type_id', 'weekday', 'room_id', 'lead_coach_id', 'status'],
    defaultSort: { field: 'weekday', order: 'asc' },
  },
  actions: {
    students: { label: 'Students', selection: 'one', screen: 'class-students' },
    generate: { label: 'Generate sessions', selection: 'one', screen: 'generate-sessions' },
    'generate-term': {
      label: 'Generate a term’s sessions',
      selection: 'none',
      screen: 'generate-term-sessions',
    },
    'copy-previous-term': {
      label: 'Copy the classes of the previous term',
      selection: 'none',
      screen: 'copy-previous-term',
    },
  },
  permissions: classes,
  deleteMode: 'archive',
  check: async (v, { tx, tenant, id }) => {
    const errors: Record<string, string | undefined> = {};
    const termId = typeof v.term_id === 'number' ? v.term_id : null;
    const [term] = termId ? await tx.select().from(terms).where(tenant.byId(terms, termId)) : [];
    if (term) errors.term_id = termClosedProblem(term) ?? undefined;
    const typeId = typeof v.class_type_id === 'number' ? v.class_type_id : null;
    const [type] = typeId ? await tx.select().from(classTypes).where(tenant.byId(classTypes, typeId)) : [];
    const duration = (v.duration_minutes as number | null) ?? type?.defaultDurationMinutes ?? 60;
    if (typeof v.start_time === 'string' && minutesOf(v.start_time) + duration > 24 * 60)
      errors.duration_minutes = 'The class must end by midnight.';
    const ageMin = (v.age_min_months as number | null) ?? type?.ageMinMonths ?? null;
    const ageMax = (v.age_max_months as number | null) ?? type?.ageMaxMonths ?? null;
    if (ageMin !== null && ageMax !== null && ageMax < ageMin)
      errors.age_max_months = 'Age to must be at least Age from.';
    // Coaches work with children only with a current check, on every date the class meets.
    if (term && typeof v.weekday === 'string') {
      const dates = await classDates(tx, tenant, term.id, Number(v.weekday));
      const days = dates.length > 0 ? dates : [term.startDate];
      if (typeof v.lead_coach_id === 'number')
        errors.lead_coach_id = (await coachProblems(tx, tenant, [v.lead_coach_id], days))[0];
      const assistants = (v.assistant_coach_ids as number[] | undefined) ?? [];
      if (assistants.length > 0)
        errors.assistant_coach_ids =
          (await coachProblems(tx, tenant, assistants, days)).join(' ') || undefined;
    }
    if (id !== null && typeof v.capacity === 'number') {
      const [enrolled] = await tx
        .select({ n: count() })
        .from(classEnrolments)
        .where(
          tenant.where(
            classEnrolments,
            eq(classEnrolments.termClassId, id),
            eq(classEnrolments.kind, 'enrolled'),
            eq(classEnrolments.status, 'active'),
          ),
        );
      const n = enrolled?.n ?? 0;
      if (v.capacity < n)
        errors.capacity = `Capacity cannot be below the ${n} ${n === 1 ? 'child' : 'children'} already enrolled.`;
    }
    return compact(errors);
  },
  // Empty values take the class type's (duration, capacity, ages, level).
  beforeSave: async (v, { tx, tenant }) => {
    const [type] = await tx
      .select()
      .from(classTypes)
      .where(tenant.byId(classTypes, v.class_type_id as number));
    return {
      ...v,
      weekday: Number(v.weekday),
      duration_minutes: v.duration_minutes ?? type?.defaultDurationMinutes ?? 60,
      capacity: v.capacity ?? type?.capacityDefault ?? 10,
      age_min_months: v.age_min_months ?? type?.ageMinMonths ?? null,
      age_max_months: v.age_max_months ?? type?.ageMaxMonths ?? null,
      level: v.level ?? type?.level ?? null,
    };
  },
});

/**
 * The dated sessions of a class, generated (not typed in). Staff cancel or move one here; either
 * marks it edited by hand, so generating again keeps it as it is.
 */
export const classSessionsResource = defineResource({
  name: 'class-sessions',
  label: 'Sessions',
  singular: 'Session',
  table: classSessions,
  parent: { resource: 'term-classes', column: 'termClassId' },
  titleField: 'date',
  fields: {
    date: field.date('Date', { readOnly: true }),
    start_time: field.time('Starts at', { readOnly: true }),
    duration_minutes: field.number('Duration (minutes)', { readOnly: true }),
    room_id: field.reference('Room', 'rooms', { readOnly: true }),
    coach_id: field.reference('Coach', 'coaches', { readOnly: true }),
    status: field.select(
      'Status',
      [
        { value: 'scheduled', label: 'Scheduled' },
        { value: 'cancelled', label: 'Cancelled' },
      ],
      { readOnly: true },
    ),
    cancel_reason: field.text('Cancellation reason', { readOnly: true }),
    slot_date: field.date('Generated for', { readOnly: true }),
    edited_at: field.datetime('Changed by hand', { readOnly: true }),
  },
  list: {
    columns: ['date', 'start_time', 'room_id', 'coach_id', 'status', 'edited_at'],
    filters: ['status', 'room_id', 'coach_id'],
    defaultSort: { field: 'date', order: 'asc' },
  },
  actions: {
    move: {
      label: 'Move',
      selection: 'one',
      confirm: 'move this session',
      fields: {
        date: field.date('New date', { help: 'Empty: the same date' }),
        start_time: field.time('New start time', { help: 'Empty: the same time' }),
        room_id: field.reference('Room', 'rooms', { help: 'Empty: the same room' }),
        coach_id: field.reference('Coach', 'coaches', { help: 'Empty: the same coach' }),
      },
      run: async ({ tx, tenant }, [row], values) =>
        moveSession(tx, tenant, row!.id, {
          date: values.date as string | null,
          startTime: values.start_time as string | null,
          roomId: values.room_id as number | null,
          coachId: values.coach_id as number | null,
        }),
    },
    cancel: {
      label: 'Cancel session',
      selection: 'one',
      confirm: 'cancel this session and tell the families',
      dismiss: 'Keep session',
      fields: { reason: field.text('Reason', { required: true, max: 200, help: 'Sent to the families' }) },
      run: async ({ tx, tenant, deps, afterCommit }, [row], values) => {
        const mails = await cancelSession(tx, tenant, deps.config, row!.id, values.reason as string);
        if (mails > 0) afterCommit(() => deps.jobs.nudge(queues.mailDeliver));
        return `The session has been cancelled. ${mails} ${mails === 1 ? 'family' : 'families'} will get a mail.`;
      },
    },
  },
  permissions: classes,
  canCreate: false,
  canEdit: false,
  deleteMode: 'none',
});

export const termClassResources = [termClassesResource, classSessionsResource];
