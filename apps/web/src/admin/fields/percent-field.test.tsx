import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FieldMeta, FormDefinition, ResourceMeta } from '@tumble/contracts/resources';
import { describe, expect, it } from 'vitest';
import { api } from '../../api/client';
import { staffAcl } from '../../test/fixtures';
import { json, renderApp, stubServer } from '../../test/render';

/** The surcharge form as the server defines it: a percent field and a fixed amount, by kind. */
const fields: FieldMeta[] = [
  { name: 'name', type: 'text', label: 'Name', required: true, readOnly: false },
  {
    name: 'kind',
    type: 'select',
    label: 'Kind',
    required: true,
    readOnly: false,
    options: [
      { value: 'percent', label: 'Percent of the total' },
      { value: 'fixed', label: 'Fixed amount' },
    ],
  },
  {
    name: 'percent',
    type: 'percent',
    label: 'Percent',
    required: true,
    readOnly: false,
    min: 0,
    max: 10_000,
    when: { field: 'kind', value: 'percent' },
  },
  {
    name: 'fixed_amount',
    type: 'money',
    label: 'Amount',
    required: true,
    readOnly: false,
    min: 0,
    when: { field: 'kind', value: 'fixed' },
  },
];
const surchargesMeta: ResourceMeta = {
  name: 'surcharges',
  label: 'Surcharges',
  singular: 'Surcharge',
  parent: null,
  children: [],
  titleField: 'name',
  fields,
  columns: ['name', 'kind', 'percent', 'fixed_amount'],
  sortable: ['name'],
  defaultSort: { field: 'name', order: 'asc' },
  filters: [],
  searchable: false,
  actions: [],
  canWrite: true,
  canCreate: true,
  canEdit: true,
  canDelete: true,
  deleteMode: 'delete',
};
const form: FormDefinition = {
  title: 'Add Surcharge',
  fields: fields.map((f) => ({ ...f, value: f.name === 'kind' ? 'percent' : null })),
};

describe('percent fields (issue 21 point 17)', () => {
  it('staff type 1.5 for 1.5%, and only the field of the chosen kind is shown and sent', async () => {
    const fetchMock = stubServer({
      'GET /rest/acl': () => json(staffAcl()),
      'GET /api/v1/admin/surcharges/meta': () => json(surchargesMeta),
      'GET /api/v1/admin/surcharges/add': () => json(form),
      'GET /api/v1/admin/surcharges': () => json({ data: [], total: 0 }),
      'POST /api/v1/admin/surcharges': () => json({ valid: true, redirect: '/admin/surcharges' }),
    });
    api.setToken('tok');
    const { router } = renderApp('/admin/surcharges/add');
    await screen.findByRole('heading', { name: 'Add Surcharge' }, { timeout: 5000 });
    const user = userEvent.setup();

    expect(screen.queryByRole('textbox', { name: /^Amount/ })).toBeNull();
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'Card surcharge');
    await user.type(screen.getByRole('textbox', { name: /^Percent/ }), '1.5');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/surcharges'));
    const call = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      name: 'Card surcharge',
      kind: 'percent',
      percent: 1.5,
    });
  }, 20_000);
});
