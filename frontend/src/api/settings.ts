import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getJson, postJson } from "./client";
import { currentCsrfToken } from "./session";
import { providerPath } from "../lib/settings";
import { arrPath } from "../lib/arr";
import type { ApiKey, ArrRequest, ArrTest, ProviderRequest, ProviderTest, SettingsChange, SettingsView, WebDavAccountRequest } from "./types";

const settingsKey = ["settings"] as const;

/** Everything the Settings page shows, fetched again every 2 s while the page is visible so the budget's figures stay live. */
export function useSettings() {
  return useQuery({
    queryKey: settingsKey,
    queryFn: ({ signal }) => getJson<SettingsView>("/ui/api/settings", signal),
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
  useSettingsChange((values: SettingsChange["values"], token) => postJson<SettingsView>("/ui/api/settings", { values } satisfies SettingsChange, token));

/** Adds a provider (originalName null) or changes the one now called originalName; a failed test answers 422 (see asSaveRefusal). */
export const useSaveProvider = () =>
  useSettingsChange(({ originalName, request }: { originalName: string | null; request: ProviderRequest }, token) =>
    postJson<SettingsView>(originalName === null ? "/ui/api/settings/providers" : providerPath(originalName), request, token),
  );

export const useDeleteProvider = () => useSettingsChange((name: string, token) => postJson<SettingsView>(providerPath(name, "delete"), {}, token));

export const useSaveWebDav = () =>
  useSettingsChange((request: WebDavAccountRequest, token) => postJson<SettingsView>("/ui/api/settings/webdav", request, token));

/** Tests a provider's settings without saving them. */
export function useTestProvider() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: ProviderRequest) => postJson<ProviderTest>("/ui/api/settings/providers/test", request, await currentCsrfToken(queryClient)),
  });
}

/** Adds a Sonarr/Radarr (originalName null) or changes the one now called originalName; a failed test answers 422 (see asArrSaveRefusal). */
export const useSaveArr = () =>
  useSettingsChange(({ originalName, request }: { originalName: string | null; request: ArrRequest }, token) =>
    postJson<SettingsView>(originalName === null ? "/ui/api/settings/arr" : arrPath(originalName), request, token),
  );

export const useDeleteArr = () => useSettingsChange((name: string, token) => postJson<SettingsView>(arrPath(name, "delete"), {}, token));

/** Calls a Sonarr/Radarr's system/status with the form's settings, without saving them. */
export function useTestArr() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: ArrRequest) => postJson<ArrTest>("/ui/api/settings/arr/test", request, await currentCsrfToken(queryClient)),
  });
}

/** A new SABnzbd API key; the old one is refused from that moment. */
export function useRegenerateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => postJson<ApiKey>("/ui/api/settings/api-key", {}, await currentCsrfToken(queryClient)),
    onSuccess: async ({ apiKey }) => {
      await queryClient.cancelQueries({ queryKey: settingsKey });
      queryClient.setQueryData<SettingsView>(settingsKey, (view) => (view ? { ...view, sab: { ...view.sab, apiKey } } : view));
    },
  });
}
