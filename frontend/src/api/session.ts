import { useEffect } from "react";
import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { ApiError, getJson, postJson } from "./client";
import { apiPaths } from "./paths";

/** What GET /ui/api/session answers (see docs/ui.md). */
export interface Session {
  setupRequired: boolean;
  authenticated: boolean;
  user: string | null;
  csrfToken: string;
}

const sessionKey = ["session"] as const;
const signedOutKey = ["session", "signed-out"] as const;

/** The channel every tab of this origin hears a logout or login on. */
const channelName = "nzbdav-session";

/**
 * The session. When it turns from logged in to logged out without this tab's Log out (another tab
 * logged out, the session expired or was ended by a password change), the login page says so.
 */
export function useSession() {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: sessionKey,
    queryFn: async ({ signal }) => {
      const next = await getJson<Session>(apiPaths.session, signal);
      const before = queryClient.getQueryData<Session>(sessionKey);
      if (before?.authenticated && !next.authenticated) queryClient.setQueryData(signedOutKey, true);
      return next;
    },
    staleTime: 60_000,
  });
}

/** True when the last session ended without this tab's Log out: the login page says "You were signed out". */
export function useSignedOut(): boolean {
  const { data } = useQuery({ queryKey: signedOutKey, queryFn: () => false, enabled: false, initialData: false, staleTime: Infinity });
  return data;
}

/** Asks the server again whether the session still holds (after a 401, a closed live feed, another tab's logout). */
export function recheckSession(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: sessionKey, exact: true });
}

/** A UI API call answered 401 while the page thought it was logged in: the session ended under it. */
export function onApiError(queryClient: QueryClient, error: unknown): void {
  if (error instanceof ApiError && error.status === 401 && queryClient.getQueryData<Session>(sessionKey)?.authenticated) void recheckSession(queryClient);
}

/**
 * Keeps this tab in step with the others: a logout or login in one is followed in all within a
 * moment (BroadcastChannel; without it, the next call's 401 does the same, only later).
 */
export function useSessionSync(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (typeof BroadcastChannel === "undefined") return;
    const channel = new BroadcastChannel(channelName);
    channel.onmessage = () => void recheckSession(queryClient);
    return () => channel.close();
  }, [queryClient]);
}

function announce(change: "logout" | "login"): void {
  if (typeof BroadcastChannel === "undefined") return;
  const channel = new BroadcastChannel(channelName);
  channel.postMessage(change);
  channel.close();
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
    onSuccess: (session) => {
      queryClient.setQueryData(signedOutKey, false);
      queryClient.setQueryData(sessionKey, session);
      if (session.authenticated) announce("login");
    },
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
      announce("logout");
      await queryClient.invalidateQueries({ queryKey: sessionKey });
    },
  });
}
