import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { formResponse } from '@tumble/contracts/http';
import {
  familyTasksResponse,
  type NewTaskRequest,
  type TaskFilter,
  taskOptionsResponse,
  tasksResponse,
} from '@tumble/contracts/tasks';
import { api } from '../../api/client';

export function useTasks(filter: TaskFilter) {
  return useQuery({
    queryKey: ['admin', 'tasks', filter],
    queryFn: ({ signal }) =>
      api.get('/api/v1/admin/tasks', { schema: tasksResponse, query: { filter }, signal }),
  });
}

export function useTaskOptions(enabled: boolean) {
  return useQuery({
    enabled,
    queryKey: ['admin', 'tasks', 'options'],
    queryFn: ({ signal }) => api.get('/api/v1/admin/tasks/options', { schema: taskOptionsResponse, signal }),
  });
}

export function createTask(body: NewTaskRequest) {
  return api.post('/api/v1/admin/tasks', body, { schema: formResponse });
}

/** Marks a task done: staff (`admin`) or the parent (`students`, their own family's only). */
export function useCompleteTask(side: 'admin' | 'students') {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post(`/api/v1/${side}/tasks/${id}/done`),
    onSettled: () => client.invalidateQueries({ queryKey: [side, 'tasks'] }),
  });
}

export function useFamilyTasks() {
  return useQuery({
    queryKey: ['students', 'tasks'],
    queryFn: ({ signal }) => api.get('/api/v1/students/tasks', { schema: familyTasksResponse, signal }),
  });
}
