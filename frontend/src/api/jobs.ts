import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getJson, postFormWithProgress, postJson, type UploadProgress } from "./client";
import { apiPaths } from "./paths";
import { currentCsrfToken } from "./session";
import type { AddResult, AddUrlRequest, HistoryFilter, HistoryPage, Priority, QueueState, QueueView, RetryResult } from "./types";

const queueKey = ["queue"] as const;
const historyKey = ["history"] as const;

/** The queue, refreshed every second while the page is visible (TanStack pauses the interval in a hidden tab). */
export function useQueue() {
  return useQuery({
    queryKey: queueKey,
    queryFn: ({ signal }) => getJson<QueueView>(apiPaths.queue, signal),
    refetchInterval: 1_000,
  });
}

export interface HistoryQuery {
  page: number;
  pageSize: number;
  search: string;
  status: HistoryFilter;
}

export function useHistory(q: HistoryQuery) {
  return useQuery({
    queryKey: [...historyKey, q],
    queryFn: ({ signal }) => getJson<HistoryPage>(apiPaths.history(q), signal),
    refetchInterval: 3_000,
    // Keeps the rows on screen while the next page or search loads, instead of flashing empty.
    placeholderData: keepPreviousData,
  });
}

/** A change to the queue or history; afterwards both are fetched again at once rather than at the next tick. */
function useJobChange<TVariables, TResult>(call: (variables: TVariables, csrfToken: string) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (variables: TVariables) => call(variables, await currentCsrfToken(queryClient)),
    onSettled: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: queueKey }), queryClient.invalidateQueries({ queryKey: historyKey })]);
    },
  });
}

/** Uploads NZBs; `onProgress` hears how much of the form has gone (the server then parses before it answers). */
export const useUpload = (onProgress: (progress: UploadProgress) => void) =>
  useJobChange((form: FormData, token) => postFormWithProgress<AddResult>(apiPaths.upload, form, token, onProgress));
export const useAddUrl = () => useJobChange((body: AddUrlRequest, token) => postJson<AddResult>(apiPaths.addUrl, body, token));
export const useQueuePause = () =>
  useJobChange((pause: boolean, token) => postJson<QueueState>(apiPaths.queuePause(pause), {}, token));
export const useJobPause = () =>
  useJobChange(({ id, pause }: { id: string; pause: boolean }, token) => postJson<void>(apiPaths.job(id, pause ? "pause" : "resume"), {}, token));
export const useJobPriority = () =>
  useJobChange(({ id, priority }: { id: string; priority: Priority }, token) => postJson<void>(apiPaths.job(id, "priority"), { priority }, token));
export const useJobDelete = () =>
  useJobChange(({ id, deleteFiles }: { id: string; deleteFiles: boolean }, token) => postJson<void>(apiPaths.job(id, "delete"), { deleteFiles }, token));
export const useJobRetry = () => useJobChange((id: string, token) => postJson<RetryResult>(apiPaths.job(id, "retry"), {}, token));
