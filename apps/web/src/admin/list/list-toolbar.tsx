import { Button, Group, Select, Switch } from '@mantine/core';
import type { FieldMeta, ResourceMeta } from '@tumble/contracts/resources';
import { useState } from 'react';
import { SearchInput } from '../../components/search-input';
import { useResourceOptions } from '../api/get-options';
import { type ResourceRef, referenceRef } from '../resource-ref';
import type { FilterValue, ListParams } from './use-list-params';

interface ListToolbarProps {
  meta: ResourceMeta;
  params: ListParams;
  resourceRef: ResourceRef;
  nestedNames: string[];
}

const BOOLEAN_CHOICES = [
  { value: 'true', label: 'Yes' },
  { value: 'false', label: 'No' },
];

function ReferenceFilter({
  field,
  target,
  value,
  onChange,
}: {
  field: FieldMeta;
  target: ResourceRef;
  value: FilterValue | undefined;
  onChange: (value: FilterValue | null) => void;
}) {
  const options = useResourceOptions(target);
  const data = (options.data ?? []).map((o) => ({ value: String(o.value), label: o.label }));
  return (
    <Select
      aria-label={field.label}
      placeholder={`${field.label}: all`}
      data={data}
      value={value === undefined ? null : String(value)}
      onChange={(next) => onChange(next === null ? null : Number(next))}
      searchable
      clearable
      w={{ base: '100%', xs: 200 }}
      size="sm"
    />
  );
}

/** The search box and the filters of meta.filters; both live in the URL. */
export function ListToolbar({ meta, params, resourceRef, nestedNames }: ListToolbarProps) {
  const [cleared, setCleared] = useState(0);

  const filterFields = meta.filters
    .map((name) => meta.fields.find((f) => f.name === name))
    .filter((f): f is FieldMeta => f !== undefined);

  return (
    <Group gap="xs" wrap="wrap" align="flex-end">
      {meta.searchable ? (
        <SearchInput
          value={params.q}
          onSearch={params.setSearch}
          clearSignal={cleared}
          placeholder={`Search ${meta.label.toLowerCase()}`}
          w={{ base: '100%', xs: 260 }}
          size="sm"
        />
      ) : null}
      {filterFields.map((field) => {
        const value = params.filter[field.name];
        if (field.type === 'reference' && field.reference) {
          return (
            <ReferenceFilter
              key={field.name}
              field={field}
              target={referenceRef(field.reference, resourceRef, nestedNames)}
              value={value}
              onChange={(next) => params.setFilter(field.name, next)}
            />
          );
        }
        const data =
          field.type === 'boolean'
            ? BOOLEAN_CHOICES
            : (field.options ?? []).map((o) => ({ value: String(o.value), label: o.label }));
        return (
          <Select
            key={field.name}
            aria-label={field.label}
            placeholder={`${field.label}: all`}
            data={data}
            value={value === undefined ? null : String(value)}
            onChange={(next) =>
              params.setFilter(
                field.name,
                next === null ? null : field.type === 'boolean' ? next === 'true' : next,
              )
            }
            clearable
            w={{ base: '100%', xs: 200 }}
            size="sm"
          />
        );
      })}
      {meta.deleteMode === 'archive' ? (
        <Switch
          label="Show archived"
          checked={params.filter.archived === true}
          onChange={(event) => params.setFilter('archived', event.currentTarget.checked ? true : null)}
          mb={8}
        />
      ) : null}
      {params.hasCriteria ? (
        <Button
          variant="subtle"
          size="sm"
          onClick={() => {
            setCleared((n) => n + 1);
            params.clearCriteria();
          }}
        >
          Clear
        </Button>
      ) : null}
    </Group>
  );
}
