import { useLocation } from 'react-router';
import { type ParsedResourcePath, parseResourcePath } from './resource-ref';

export type ResourceRoute = ParsedResourcePath;

/**
 * The resource, parent chain and row of the current admin URL (see `parseResourcePath`), so the
 * same screens serve top-level and nested resources at any depth.
 */
export function useResourceRoute(): ResourceRoute {
  const { pathname } = useLocation();
  return parseResourcePath(pathname) ?? { ref: null, id: null, badId: false, screen: 'list' };
}
