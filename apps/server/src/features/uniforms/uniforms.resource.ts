import { defineResource } from '../../platform/resources/define.ts';
import { field } from '../../platform/resources/fields.ts';
import { uniformSizes, uniformTypes } from './uniforms.tables.ts';

const classes = { read: 'classes.read', write: 'classes.write' } as const;

export const uniformTypesResource = defineResource({
  name: 'uniform-types',
  label: 'Uniform types',
  nav: { group: 'Classes', icon: 'shirt' },
  singular: 'Uniform type',
  table: uniformTypes,
  titleField: 'name',
  fields: {
    name: field.text('Name', { required: true, max: 120, help: 'e.g. Club leotard, Coach polo' }),
    price: field.money('Price', { required: true, default: 0, help: 'GST included where you charge it' }),
    invoiceAllowed: field.boolean('Can be added to an invoice', {
      default: false,
      help: 'Parents may add an order to their next invoice instead of paying by card',
    }),
  },
  list: { columns: ['name', 'price'], search: ['name'], defaultSort: { field: 'name', order: 'asc' } },
  permissions: classes,
  deleteMode: 'archive',
});

/** The sizes of one uniform type and how many of each are on the shelf. */
export const uniformSizesResource = defineResource({
  name: 'uniform-sizes',
  label: 'Uniform sizes',
  singular: 'Uniform size',
  table: uniformSizes,
  parent: { resource: 'uniform-types', column: 'uniformTypeId' },
  titleField: 'name',
  fields: {
    name: field.text('Size', { required: true, max: 40, help: 'e.g. Child 8, Adult M' }),
    stock: field.number('In stock', { required: true, min: 0, max: 100_000, default: 0 }),
  },
  list: { columns: ['name', 'stock'], search: ['name'], defaultSort: { field: 'name', order: 'asc' } },
  permissions: classes,
});

export const uniformResources = [uniformTypesResource, uniformSizesResource];
