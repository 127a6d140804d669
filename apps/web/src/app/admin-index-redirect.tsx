import { Navigate } from 'react-router';
import { useAuthToken, useUserMeta } from '../api/use-session';

/**
 * /admin: the dashboard when signed in, the sign-in page otherwise (SPEC.md point 2). A coach lands
 * on today's roll: taking it is what they sign in for (issue 13); an operator on Customers.
 */
export function AdminIndexRedirect() {
  const token = useAuthToken();
  const role = useUserMeta()?.role;
  const home =
    role === 'companycoach' ? '/admin/roll' : role === 'operator' ? '/admin/customers' : '/admin/dashboard';
  return <Navigate to={token ? home : '/admin/login'} replace />;
}
