import { useState } from 'react';
import { createHashRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { buildRouteObjects } from './routes/route-objects';

/** Hash-history router (URLs like /web/#/dashboard/workplace). */
export function AppRouter() {
  const [router] = useState(() => createHashRouter(buildRouteObjects()));
  return <RouterProvider router={router} />;
}
