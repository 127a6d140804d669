import { type EraseFamilyRequest, eraseFamilyResponse } from '@tumble/contracts/company-data';
import { api } from '../../api/client';

export const eraseFamily = (parentId: number, body: EraseFamilyRequest) =>
  api.post(`/api/v1/admin/families/${parentId}/erase`, body, { schema: eraseFamilyResponse });
