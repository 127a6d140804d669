import { useQuery } from '@tanstack/react-query';
import { formResponse } from '@tumble/contracts/http';
import { reminderRulesResponse, type SaveReminderRuleRequest } from '@tumble/contracts/reminders';
import { api } from '../../api/client';

export const reminderKeys = { all: ['admin', 'reminder-emails'] as const };

/** The company's reminder rules and the last 50 reminders sent. */
export function useReminderRules() {
  return useQuery({
    queryKey: reminderKeys.all,
    queryFn: ({ signal }) =>
      api.get('/api/v1/admin/reminder-emails', { schema: reminderRulesResponse, signal }),
  });
}

export function saveReminderRule(body: SaveReminderRuleRequest) {
  return api.post('/api/v1/admin/reminder-emails', body, { schema: formResponse });
}
