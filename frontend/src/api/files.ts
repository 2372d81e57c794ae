import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getJson, postJson } from "./client";
import { currentCsrfToken } from "./session";
import type { FileListing, FileTestResult } from "./types";

export function useFiles(path: string) {
  return useQuery({
    queryKey: ["files", path],
    queryFn: ({ signal }) => getJson<FileListing>(`/ui/api/files?${new URLSearchParams({ path }).toString()}`, signal),
  });
}

/** Reads the start of a file through the server's streaming path: how soon the first byte came and how fast the rest. */
export function useFileTest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (path: string) => postJson<FileTestResult>("/ui/api/files/test", { path }, await currentCsrfToken(queryClient)),
  });
}
