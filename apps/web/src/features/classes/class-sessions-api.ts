import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { classCopy, sessionGeneration, termGeneration } from '@tumble/contracts/class-sessions';
import { api } from '../../api/client';

/** What is generated: one class (`term-classes/:id`) or every class of a term (`terms/:id`). */
export type GenerationTarget = { kind: 'class' | 'term'; id: number };

const generationPath = (target: GenerationTarget) =>
  target.kind === 'class'
    ? `/api/v1/admin/term-classes/${target.id}/generate`
    : `/api/v1/admin/terms/${target.id}/generate`;

/** A term's generation as a list of classes, whichever target was asked for. */
async function fetchGeneration(target: GenerationTarget, method: 'get' | 'post', signal?: AbortSignal) {
  const path = generationPath(target);
  if (target.kind === 'class') {
    const one =
      method === 'get'
        ? await api.get(path, { schema: sessionGeneration, signal })
        : await api.post(path, {}, { schema: sessionGeneration });
    return [one];
  }
  const term =
    method === 'get'
      ? await api.get(path, { schema: termGeneration, signal })
      : await api.post(path, {}, { schema: termGeneration });
  return term.classes;
}

const generationKey = (target: GenerationTarget | null) => ['admin', 'class-sessions', 'generate', target];

/** GET …/generate: the difference generating would make (nothing written). */
export function useGenerationPreview(target: GenerationTarget | null) {
  return useQuery({
    queryKey: generationKey(target),
    queryFn: ({ signal }) => fetchGeneration(target!, 'get', signal),
    enabled: target !== null,
  });
}

/** POST …/generate: makes the previewed difference; the preview is read again afterwards. */
export function useApplyGeneration(target: GenerationTarget | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => fetchGeneration(target!, 'post'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}

const copyPath = (termId: number) => `/api/v1/admin/terms/${termId}/copy-classes`;

/** GET …/copy-classes: the previous term's classes as they would be copied into this term. */
export function useCopyPreview(termId: number | null) {
  return useQuery({
    queryKey: ['admin', 'term-classes', 'copy', termId],
    queryFn: ({ signal }) => api.get(copyPath(termId!), { schema: classCopy, signal }),
    enabled: termId !== null,
  });
}

/** POST …/copy-classes: creates them in one step. */
export function useApplyCopy(termId: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post(copyPath(termId!), {}, { schema: classCopy }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}
