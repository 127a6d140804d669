import type { ComponentType } from 'react';

/** Loads a page's code only when its route is visited, so public pages stay small. */
export function page<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return async () => ({ Component: pick(await load()) });
}
