import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getJson, postJson } from "./client";
import { currentCsrfToken } from "./session";
import type { HealthActionResult, HealthFilter, HealthView } from "./types";

const healthKey = ["health"] as const;

export interface HealthQuery {
  state: HealthFilter;
  offset: number;
  limit: number;
}

/** The Health page's view, refreshed every 3 s while the page is visible: background checks change states on their own. */
export function useHealth(q: HealthQuery) {
  const query = new URLSearchParams({ state: q.state, offset: String(q.offset), limit: String(q.limit) }).toString();
  return useQuery({
    queryKey: [...healthKey, q],
    queryFn: ({ signal }) => getJson<HealthView>(`/ui/api/health?${query}`, signal),
    refetchInterval: 3_000,
    // Keeps the rows on screen while the next page or filter loads, instead of flashing empty.
    placeholderData: keepPreviousData,
  });
}

export type HealthAction = { kind: "check" } | { kind: "repair" } | { kind: "ignore"; ignored: boolean };

const actionPath = (id: string, action: string) => `/ui/api/health/files/${encodeURIComponent(id)}/${action}`;

/**
 * One file's action (check now, repair now, ignore / un-ignore). The answer's file replaces that
 * row at once in every cached page; then the counts and the audit log are fetched again, and the
 * Files page's badges with them.
 */
export function useHealthAction(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (action: HealthAction) => {
      const token = await currentCsrfToken(queryClient);
      if (action.kind === "ignore") return postJson<HealthActionResult>(actionPath(id, "ignore"), { ignored: action.ignored }, token);
      return postJson<HealthActionResult>(actionPath(id, action.kind), {}, token);
    },
    onSuccess: async ({ file }) => {
      await queryClient.cancelQueries({ queryKey: healthKey });
      queryClient.setQueriesData<HealthView>({ queryKey: healthKey }, (view) =>
        view ? { ...view, files: file ? view.files.map((f) => (f.id === id ? file : f)) : view.files.filter((f) => f.id !== id) } : view,
      );
    },
    onSettled: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: healthKey }), queryClient.invalidateQueries({ queryKey: ["files"] })]);
    },
  });
}
