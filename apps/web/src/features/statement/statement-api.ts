import { useQuery } from '@tanstack/react-query';
import { type FamilyStatement, familyStatementResponse } from '@tumble/contracts/statement';
import { api } from '../../api/client';

/** Query keys of family accounts: staff read one family's, a parent their own. */
export const statementKeys = {
  family: (parentId: number) => ['statement', 'family', parentId] as const,
  mine: ['statement', 'mine'] as const,
};

/** GET /api/v1/admin/parents/:id/statement: a family's account, for staff. */
export function fetchFamilyStatement(parentId: number, signal?: AbortSignal): Promise<FamilyStatement> {
  return api.get(`/api/v1/admin/parents/${parentId}/statement`, { schema: familyStatementResponse, signal });
}

export function useFamilyStatement(parentId: number | null) {
  return useQuery({
    queryKey: statementKeys.family(parentId ?? 0),
    queryFn: ({ signal }) => fetchFamilyStatement(parentId!, signal),
    enabled: parentId !== null,
  });
}

/** GET /api/v1/students/statement: the signed-in parent's own account. */
export function fetchMyStatement(signal?: AbortSignal): Promise<FamilyStatement> {
  return api.get('/api/v1/students/statement', { schema: familyStatementResponse, signal });
}

export function useMyStatement() {
  return useQuery({ queryKey: statementKeys.mine, queryFn: ({ signal }) => fetchMyStatement(signal) });
}

export const familyStatementPdf = (parentId: number) => `/api/v1/admin/parents/${parentId}/statement/pdf`;
export const myStatementPdf = '/api/v1/students/statement/pdf';
