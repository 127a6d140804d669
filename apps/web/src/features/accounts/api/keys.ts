/** Query keys of the account screens. */
export const accountKeys = {
  myAccount: ['accounts', 'my-account'] as const,
  myCompany: ['accounts', 'my-company'] as const,
  users: ['accounts', 'users'] as const,
  userList: (query: { page: number; q: string }) => ['accounts', 'users', 'list', query] as const,
  user: (id: number) => ['accounts', 'users', id] as const,
  mail: ['accounts', 'mail'] as const,
  mailList: (query: { page: number; q: string }) => ['accounts', 'mail', 'list', query] as const,
  mailMessage: (id: number) => ['accounts', 'mail', id] as const,
};
