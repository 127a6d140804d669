import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProviders } from './providers';
import { patchRoutesOnNavigation, routes } from './routes';

export function App() {
  const [router] = useState(() => createBrowserRouter(routes, { patchRoutesOnNavigation }));
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
