import { Alert, Button, Card, Group, Stack, Title } from '@mantine/core';
import { messages } from '@tumble/contracts/messages';
import type { ResourceMeta } from '@tumble/contracts/resources';
import { createContext, type ReactNode, useContext } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../api/client';
import { PageLoader } from '../components/page-loader';
import { useResourceMeta } from './api/get-meta';
import { type RecordWithLabels, useResourceRecord } from './api/get-record';
import { formatDate } from './format';
import { parentOf, type ResourceRef, resourceLabel } from './resource-ref';
import { useResourceRoute } from './use-resource-route';

export interface ResourceScopeValue {
  ref: ResourceRef;
  meta: ResourceMeta;
  /** The row of a view or edit URL. */
  id: number | null;
  /** Nested resources: the parent's meta and row (for the breadcrumbs, tabs and reference choices). */
  parentMeta: ResourceMeta | null;
  parentRecord: RecordWithLabels | null;
}

const ResourceScopeContext = createContext<ResourceScopeValue | null>(null);

export function useResourceScope(): ResourceScopeValue {
  const scope = useContext(ResourceScopeContext);
  if (!scope) throw new Error('useResourceScope needs a <ResourceScope>.');
  return scope;
}

/** Whether rows can be edited: the meta allows it and the form has a field to write. */
export function canEditRows(meta: ResourceMeta): boolean {
  return meta.canEdit && meta.fields.some((f) => !f.readOnly);
}

/**
 * The title of a row: its title field (a date as DD/MM/YYYY, like every other date shown), or '#id'.
 * The list, the breadcrumbs and the row's heading all use it.
 */
export function recordTitle(meta: ResourceMeta, record: RecordWithLabels | null | undefined): string {
  if (!record) return '';
  const value = record[meta.titleField];
  if (typeof value !== 'string' || !value.trim()) return `#${record.id}`;
  const type = meta.fields.find((f) => f.name === meta.titleField)?.type;
  return type === 'date' ? formatDate(value) : value;
}

/** Says that a screen cannot be shown, with a way back. */
export function ScreenProblem({ title, message, back }: { title: string; message: string; back?: string }) {
  return (
    <Card maw={720} w="100%" mx="auto">
      <Stack gap="sm">
        <Title order={2}>{title}</Title>
        <Alert color="red" role="alert">
          {message}
        </Alert>
        {back ? (
          <Group>
            <Button component={Link} to={back} variant="default">
              Back
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Card>
  );
}

function loadProblem(error: unknown, resource: string) {
  if (error instanceof ApiError && error.status === 404) {
    return (
      <ScreenProblem
        title={resourceLabel(resource)}
        message="This page does not exist, or it is not available to your account."
        back="/admin/dashboard"
      />
    );
  }
  const message =
    error instanceof ApiError
      ? (error.serverMessage ?? messages.formLoadFailed)
      : messages.communicationError;
  return <ScreenProblem title={resourceLabel(resource)} message={message} />;
}

/**
 * Loads what every generic screen needs (the resource's meta; for nested resources also the
 * parent's meta and row) and provides it to the screen.
 */
export function ResourceScope({ children }: { children: ReactNode }) {
  const route = useResourceRoute();
  const ref = route.ref;
  const meta = useResourceMeta(ref);
  const parentRef = ref ? parentOf(ref) : null;
  const parentMeta = useResourceMeta(parentRef);
  const parentRecord = useResourceRecord(parentRef, ref?.parent?.id ?? null);

  if (!ref || route.badId) {
    return (
      <ScreenProblem
        title="Not found"
        message="This page does not exist, or it is not available to your account."
        back="/admin/dashboard"
      />
    );
  }
  if (meta.isError) return loadProblem(meta.error, ref.resource);
  if (parentRef && parentMeta.isError) return loadProblem(parentMeta.error, parentRef.resource);
  if (parentRef && parentRecord.isError) return loadProblem(parentRecord.error, parentRef.resource);
  if (!meta.data || (parentRef && (!parentMeta.data || !parentRecord.data))) return <PageLoader />;
  // A resource nested elsewhere is not reachable under this parent.
  if (parentRef && !parentMeta.data?.children.some((c) => c.name === ref.resource)) {
    return loadProblem(new ApiError(404, null), ref.resource);
  }

  const value: ResourceScopeValue = {
    ref,
    meta: meta.data,
    id: route.id,
    parentMeta: parentMeta.data ?? null,
    parentRecord: parentRecord.data ?? null,
  };
  return (
    <ResourceScopeContext.Provider value={value}>
      <Stack gap="md" maw={1200} w="100%" mx="auto">
        {children}
      </Stack>
    </ResourceScopeContext.Provider>
  );
}
