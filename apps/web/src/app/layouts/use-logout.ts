import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../api/client';

/** POST /rest/logout, then forget the token and leave for a sign-in page. */
export function useLogout() {
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);

  async function logout(target: string) {
    setPending(true);
    try {
      await api.post('/rest/logout');
    } catch {
      // The session ends in this browser whatever the server answered.
    }
    // Parents keep their company's authhash so they can sign in again on its page. The signed-in
    // guard leaves the navigation to us (see SignedInLayout).
    api.clearSession({ keepAuthHash: true });
    await navigate(target, { replace: true });
  }

  return { logout, pending };
}
