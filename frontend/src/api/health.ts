import { keepPreviousData, useIsMutating, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getJson, postJson } from "./client";
import { apiPaths, type HealthFileAction } from "./paths";
import { currentCsrfToken } from "./session";
import type { HealthActionResult, HealthFilter, HealthView, Par2Plan } from "./types";

const healthKey = ["health"] as const;
const actionKey = ["health-action"] as const;

export interface HealthQuery {
  state: HealthFilter;
  offset: number;
  limit: number;
}

/**
 * The Health page's view, refreshed every 3 s while the page is visible (background checks change
 * states on their own), every second while a check runs or one was asked for, so its progress moves.
 */
export function useHealth(q: HealthQuery) {
  const asked = useIsMutating({ mutationKey: actionKey }) > 0;
  return useQuery({
    queryKey: [...healthKey, q],
    queryFn: ({ signal }) => getJson<HealthView>(apiPaths.health(q), signal),
    refetchInterval: (query) => (asked || query.state.data?.files.some((f) => f.checking || f.par2) ? 1_000 : 3_000),
    // Keeps the rows on screen while the next page or filter loads, instead of flashing empty.
    placeholderData: keepPreviousData,
  });
}

export type HealthAction = { kind: Exclude<HealthFileAction, "ignore"> } | { kind: "ignore"; ignored: boolean };

/**
 * One file's action (check now, repair now, ignore / un-ignore). The answer's file replaces that
 * row at once in every cached page; then the counts and the audit log are fetched again, and the
 * Files page's badges with them.
 */
export function useHealthAction(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: actionKey,
    mutationFn: async (action: HealthAction) => {
      const token = await currentCsrfToken(queryClient);
      if (action.kind === "ignore") return postJson<HealthActionResult>(apiPaths.healthFile(id, "ignore"), { ignored: action.ignored }, token);
      return postJson<HealthActionResult>(apiPaths.healthFile(id, action.kind), {}, token);
    },
    onSuccess: async ({ file }) => {
      await queryClient.cancelQueries({ queryKey: healthKey });
      // The check has ended: a poll that answered while it ran must not keep showing it running.
      queryClient.setQueriesData<HealthView>({ queryKey: healthKey }, (view) =>
        view ? { ...view, files: file ? view.files.map((f) => (f.id === id ? file : f)) : view.files.filter((f) => f.id !== id) } : view,
      );
    },
    onSettled: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: healthKey }), queryClient.invalidateQueries({ queryKey: ["files"] })]);
    },
  });
}

/**
 * What a PAR2 repair of a file with holes would fetch (the server reads the release's small PAR2
 * index to say so): asked once per row and state, kept for a minute.
 */
export function usePar2Plan(id: string, state: string, enabled: boolean) {
  return useQuery({
    queryKey: ["par2-plan", id, state],
    queryFn: ({ signal }) => getJson<Par2Plan>(apiPaths.healthFile(id, "par2"), signal),
    enabled,
    staleTime: 60_000,
  });
}
