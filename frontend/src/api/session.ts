import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { getJson, postJson } from "./client";
import { apiPaths } from "./paths";

/** What GET /ui/api/session answers (see docs/ui.md). */
export interface Session {
  setupRequired: boolean;
  authenticated: boolean;
  user: string | null;
  csrfToken: string;
}

const sessionKey = ["session"] as const;

export function useSession() {
  return useQuery({ queryKey: sessionKey, queryFn: ({ signal }) => getJson<Session>(apiPaths.session, signal), staleTime: 60_000 });
}

/** The anti-forgery token every change must carry: the cached session's, or a fresh one. */
export async function currentCsrfToken(queryClient: QueryClient): Promise<string> {
  const cached = queryClient.getQueryData<Session>(sessionKey);
  if (cached) return cached.csrfToken;
  const session = await getJson<Session>(apiPaths.session);
  queryClient.setQueryData(sessionKey, session);
  return session.csrfToken;
}

/** A session call (setup, login, password change) whose answer is the new session. */
function useSessionChange<TBody>(path: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: TBody) => {
      return postJson<Session>(path, body, await currentCsrfToken(queryClient));
    },
    onSuccess: (session) => queryClient.setQueryData(sessionKey, session),
  });
}

export const useSetup = () => useSessionChange<{ code: string; user: string; password: string }>(apiPaths.setup);
export const useLogin = () => useSessionChange<{ user: string; password: string }>(apiPaths.login);
export const useChangePassword = () => useSessionChange<{ current: string; new: string }>(apiPaths.changePassword);

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const current = queryClient.getQueryData<Session>(sessionKey);
      if (current) await postJson<void>(apiPaths.logout, {}, current.csrfToken);
    },
    // Everything cached belonged to the session that ended.
    onSettled: async () => {
      queryClient.clear();
      await queryClient.invalidateQueries({ queryKey: sessionKey });
    },
  });
}
