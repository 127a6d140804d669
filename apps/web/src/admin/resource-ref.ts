/**
 * Which admin resource a screen shows: top-level (`/admin/venues`) or nested under a parent row
 * (`/admin/events/3/sessions`). The same reference builds the API path and the page path.
 */
export interface ParentRef {
  resource: string;
  id: number;
}

export interface ResourceRef {
  resource: string;
  parent: ParentRef | null;
}

/** '/api/v1/admin/venues' or '/api/v1/admin/events/3/sessions'. */
export function apiBase(ref: ResourceRef): string {
  return ref.parent
    ? `/api/v1/admin/${ref.parent.resource}/${ref.parent.id}/${encodeURIComponent(ref.resource)}`
    : `/api/v1/admin/${encodeURIComponent(ref.resource)}`;
}

/** '/admin/venues' or '/admin/events/3/sessions'. */
export function pageBase(ref: ResourceRef): string {
  return ref.parent
    ? `/admin/${ref.parent.resource}/${ref.parent.id}/${ref.resource}`
    : `/admin/${ref.resource}`;
}

/** The parent row as a resource reference of its own ('/admin/events/3' is row 3 of events). */
export function parentOf(ref: ResourceRef): ResourceRef | null {
  return ref.parent ? { resource: ref.parent.resource, parent: null } : null;
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
