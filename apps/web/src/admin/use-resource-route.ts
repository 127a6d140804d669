import { useMatches, useParams } from 'react-router';
import { idParam, type ResourceRef } from './resource-ref';

/**
 * Route `handle` of resource routes whose path names the resource literally: nested routes name
 * the parent resource whose rows own them; a fixed route may name its resource.
 */
export interface ResourceRouteHandle {
  parentResource?: string;
  resource?: string;
}

function handleOf(matches: ReturnType<typeof useMatches>): ResourceRouteHandle {
  const handle = [...matches]
    .reverse()
    .find((m) => typeof m.handle === 'object' && m.handle !== null)?.handle;
  return (handle ?? {}) as ResourceRouteHandle;
}

export interface ResourceRoute {
  /** null when the URL's ids are not ids (the screen shows not found). */
  ref: ResourceRef | null;
  /** The row of a view or edit URL. */
  id: number | null;
  /** An id segment that is not an id. */
  badId: boolean;
}

/**
 * Reads /admin/:resource(/:id) and /admin/<parent>/:parentId/:resource(/:id). The nested routes
 * carry their parent resource in their `handle`, so the same screens serve both.
 */
export function useResourceRoute(): ResourceRoute {
  const params = useParams();
  const matches = useMatches();
  const { parentResource, resource: fixedResource } = handleOf(matches);
  const resource = fixedResource ?? params.resource ?? '';
  const id = params.id === undefined ? null : idParam(params.id);
  const badId = params.id !== undefined && id === null;
  if (parentResource) {
    const parentId = idParam(params.parentId);
    if (parentId === null) return { ref: null, id, badId };
    return { ref: { resource, parent: { resource: parentResource, id: parentId } }, id, badId };
  }
  return { ref: { resource, parent: null }, id, badId };
}
