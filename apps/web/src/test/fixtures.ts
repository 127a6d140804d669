import type { AclResponse } from '@tumble/contracts/auth';

/** GET /rest/acl of a company administrator; override what a test needs. */
export function staffAcl(overrides: Partial<AclResponse['meta']> = {}): AclResponse {
  return {
    name: 'Casey Coach',
    meta: {
      logo: null,
      role: 'companyadmin',
      is_company: true,
      company_id: 7,
      company_name: 'Bounce Gym',
      ...overrides,
    },
    navigation: {
      side: [
        { label: 'Dashboard', path: '/admin/dashboard' },
        { label: 'Term Classes', path: '/admin/term-classes' },
      ],
      top: [
        { label: 'My Account', path: '/admin/my-account' },
        { label: 'My Company', path: '/admin/my-company' },
        { label: 'Users', path: '/admin/users' },
      ],
    },
  };
}

/** GET /rest/acl of a parent. */
export function studentAcl(): AclResponse {
  return {
    name: 'Pat Parent',
    meta: { logo: null, role: 'student', is_company: false, company_id: 7, company_name: 'Bounce Gym' },
    navigation: { side: [{ label: 'My Profile', path: '/admin/students/profile' }], top: [] },
  };
}
