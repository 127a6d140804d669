/**
 * Which admin resource a screen shows: top-level (`/admin/venues`) or nested under a parent row,
 * itself perhaps nested (`/admin/events/3/sessions`, `/admin/terms/1/classes/4/sessions`). The same
 * reference builds the API path and the page path.
 */
export interface ParentRef {
  resource: string;
  id: number;
  /** The parent row's own parent, for nesting deeper than one level. */
  parent?: ParentRef | null;
}

export interface ResourceRef {
  resource: string;
  parent: ParentRef | null;
}

/** 'events/3' or 'terms/1/classes/4': the path of a parent row and its ancestors. */
function rowPath(row: ParentRef): string {
  return `${row.parent ? `${rowPath(row.parent)}/` : ''}${row.resource}/${row.id}`;
}

/** 'venues', 'events/3/sessions'. */
function resourcePath(ref: ResourceRef): string {
  return `${ref.parent ? `${rowPath(ref.parent)}/` : ''}${encodeURIComponent(ref.resource)}`;
}

/** '/api/v1/admin/venues' or '/api/v1/admin/events/3/sessions'. */
export function apiBase(ref: ResourceRef): string {
  return `/api/v1/admin/${resourcePath(ref)}`;
}

/** '/admin/venues' or '/admin/events/3/sessions'. */
export function pageBase(ref: ResourceRef): string {
  return `/admin/${resourcePath(ref)}`;
}

/** The parent row's resource as a reference of its own ('/admin/events/3' is row 3 of events). */
export function parentOf(ref: ResourceRef): ResourceRef | null {
  return ref.parent ? { resource: ref.parent.resource, parent: ref.parent.parent ?? null } : null;
}

/**
 * A reference field names the resource it points at. A nested resource (sessions) lives under the
 * current parent row, so its choices come from the same parent; anything else is top-level.
 */
export function referenceRef(
  reference: string,
  current: ResourceRef,
  nestedNames: readonly string[],
): ResourceRef {
  if (current.parent && nestedNames.includes(reference))
    return { resource: reference, parent: current.parent };
  return { resource: reference, parent: null };
}

/** 'term-classes' → 'Term classes'. */
export function resourceLabel(resource: string): string {
  const words = resource.replace(/[-_]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'Admin';
}

/** A positive integer route parameter, or null. */
export function idParam(value: string | undefined): number | null {
  if (!value || !/^\d{1,10}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 && id <= 2_147_483_647 ? id : null;
}

export type ResourceScreen = 'list' | 'add' | 'view' | 'edit';

export interface ParsedResourcePath {
  /** null when an ancestor's id is not an id (the screen shows not found). */
  ref: ResourceRef | null;
  /** The row of a view or edit URL. */
  id: number | null;
  /** The row's id segment is not an id. */
  badId: boolean;
  screen: ResourceScreen;
}

/**
 * Reads any admin resource path, at any depth: `resource(/add | /:id(/edit | /child…))`. Which
 * resources nest under which comes from the server (each meta's `children`), so the SPA keeps no
 * list of its own: `/admin/party-bookings/7/guests` is the guests of party booking 7.
 */
export function parseResourcePath(pathname: string): ParsedResourcePath | null {
  const segments = pathname
    .replace(/^\/admin\/?/, '')
    .split('/')
    .filter(Boolean);
  let parent: ParentRef | null = null;
  for (let i = 0; i < segments.length; i += 2) {
    const resource = decodeURIComponent(segments[i]!);
    const ref: ResourceRef = { resource, parent };
    const next = segments[i + 1];
    if (next === undefined) return { ref, id: null, badId: false, screen: 'list' };
    const rest = segments.length - (i + 2);
    if (next === 'add' && rest === 0) return { ref, id: null, badId: false, screen: 'add' };
    const id = idParam(next);
    const after = segments[i + 2];
    if (after === undefined || (after === 'edit' && rest === 1)) {
      return { ref, id, badId: id === null, screen: after === 'edit' ? 'edit' : 'view' };
    }
    if (id === null) return { ref: null, id: null, badId: false, screen: 'list' };
    parent = { resource, id, parent: parent };
  }
  return null;
}
