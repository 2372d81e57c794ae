import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getJson, postJson } from "./client";
import { apiPaths, type EntityPaths } from "./paths";
import { currentCsrfToken } from "./session";
import type { ApiKey, EntityRequest, SettingsChange, SettingsView, WebDavAccountRequest } from "./types";

const settingsKey = ["settings"] as const;

/** Everything the Settings page shows, fetched again every 2 s while the page is visible so the budget's figures stay live. */
export function useSettings() {
  return useQuery({
    queryKey: settingsKey,
    queryFn: ({ signal }) => getJson<SettingsView>(apiPaths.settings, signal),
    refetchInterval: 2_000,
  });
}

/**
 * A change whose answer is the whole new view: it replaces the cached one at once. A poll already
 * under way is cancelled first, so its older answer cannot land after this one.
 */
function useSettingsChange<TVariables>(call: (variables: TVariables, csrfToken: string) => Promise<SettingsView>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (variables: TVariables) => call(variables, await currentCsrfToken(queryClient)),
    onSuccess: async (view) => {
      await queryClient.cancelQueries({ queryKey: settingsKey });
      queryClient.setQueryData(settingsKey, view);
    },
  });
}

export const useSaveSettings = () =>
  useSettingsChange((values: SettingsChange["values"], token) => postJson<SettingsView>(apiPaths.settings, { values } satisfies SettingsChange, token));

export const useSaveWebDav = () =>
  useSettingsChange((request: WebDavAccountRequest, token) => postJson<SettingsView>(apiPaths.webDavAccount, request, token));

/*
 * A listed entity (a provider, a Sonarr/Radarr): `paths` says which. Its request is built from the
 * field descriptors (lib/entities.ts), so it is typed as the descriptors are: by field name.
 */

/** Adds one (originalName null) or changes the one now called originalName; a failed test answers 422 with it. */
export const useSaveEntity = (paths: EntityPaths) =>
  useSettingsChange(({ originalName, request }: { originalName: string | null; request: EntityRequest }, token) =>
    postJson<SettingsView>(originalName === null ? paths.add : paths.change(originalName), request, token),
  );

export const useDeleteEntity = (paths: EntityPaths) => useSettingsChange((name: string, token) => postJson<SettingsView>(paths.remove(name), {}, token));

/** Tests the form's settings without saving them; `TTest` is what that entity's test answers. */
export function useTestEntity<TTest>(paths: EntityPaths) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: EntityRequest) => postJson<TTest>(paths.test, request, await currentCsrfToken(queryClient)),
  });
}

/** A new SABnzbd API key; the old one is refused from that moment. */
export function useRegenerateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => postJson<ApiKey>(apiPaths.regenerateApiKey, {}, await currentCsrfToken(queryClient)),
    onSuccess: async ({ apiKey }) => {
      await queryClient.cancelQueries({ queryKey: settingsKey });
      queryClient.setQueryData<SettingsView>(settingsKey, (view) => (view ? { ...view, sab: { ...view.sab, apiKey } } : view));
    },
  });
}
