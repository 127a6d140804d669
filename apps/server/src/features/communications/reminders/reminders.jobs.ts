import type { AppDeps } from '../../../platform/deps.ts';
import { runReminders } from './reminder-scheduler.service.ts';

/**
 * Every minute: reminder emails that fell due (reminder-scheduler.service.ts). Each is claimed in
 * reminder_sends before its mail is queued, so this may run in several processes at once.
 */
export async function registerReminderJobs(deps: AppDeps): Promise<void> {
  await deps.jobs.every('communications.reminders', () => runReminders(deps, new Date()));
}
