import { companySignInMessages, type LoginRequest, loginResponse } from '@tumble/contracts/auth';
import { messages } from '@tumble/contracts/messages';
import { ApiError, api } from '../../../api/client';

/** POST /rest. The client stores the token from the x-auth-token header; the body's token is the same. */
export async function signIn(body: LoginRequest): Promise<void> {
  const answer = await api.post('/rest', body);
  const parsed = loginResponse.safeParse(answer);
  if (parsed.success) api.setToken(parsed.data.token);
  if (!api.getToken()) throw new ApiError(401, answer);
}

/** Thrown when sign-in worked but GET /rest/acl did not. */
export class UserMetaError extends Error {
  constructor(cause: unknown) {
    super(messages.userMetaFailed, { cause });
    this.name = 'UserMetaError';
  }
}

/** The text of the 'Sorry!' banner (SPEC.md point 8). */
export function signInErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    // The staff of a company that is pending, declined or suspended are told why (decision 018).
    const message = error.serverMessage;
    const companyNotActive = Object.values(companySignInMessages).some((m) => message?.startsWith(m));
    if (error.status === 401) return companyNotActive && message ? message : messages.loginFailed;
    return message ?? messages.loginFailed;
  }
  if (error instanceof Error) return error.message;
  return messages.loginFailed;
}
