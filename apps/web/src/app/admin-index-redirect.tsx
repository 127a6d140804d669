import { Navigate } from 'react-router';
import { useAuthToken } from '../api/use-session';

/** /admin: the dashboard when signed in, the sign-in page otherwise (SPEC.md point 2). */
export function AdminIndexRedirect() {
  const token = useAuthToken();
  return <Navigate to={token ? '/admin/dashboard' : '/admin/login'} replace />;
}
