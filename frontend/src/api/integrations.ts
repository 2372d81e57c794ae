import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getJson, postJson } from "./client";
import { apiPaths } from "./paths";
import { currentCsrfToken } from "./session";
import type { Integrations, MountCheckResult } from "./types";

/** The values for the other programs, fetched again every 5 s while the page is visible so the mount's state stays current. */
export function useIntegrations() {
  return useQuery({
    queryKey: ["integrations"],
    queryFn: ({ signal }) => getJson<Integrations>(apiPaths.integrations, signal),
    refetchInterval: 5_000,
  });
}

/** The managed mount's state alone, every second while shown (the Settings page's Mount card beside its switch). */
export function useMountState() {
  return useQuery({
    queryKey: ["integrations", "mount"],
    queryFn: async ({ signal }) => (await getJson<Integrations>(apiPaths.integrations, signal)).mount,
    refetchInterval: 1_000,
  });
}

/** Reads one library file through NzbDav:MountPath and compares it with what NzbDav serves; every finding is a check, never an error. */
export function useMountCheck() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => postJson<MountCheckResult>(apiPaths.mountCheck, {}, await currentCsrfToken(queryClient)),
  });
}
