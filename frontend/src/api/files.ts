import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getJson, postJson } from "./client";
import { apiPaths } from "./paths";
import { currentCsrfToken } from "./session";
import type { FileListing, FileTestResult } from "./types";

export function useFiles(path: string) {
  return useQuery({
    queryKey: ["files", path],
    queryFn: ({ signal }) => getJson<FileListing>(apiPaths.files(path), signal),
  });
}

/** Reads the start of a file through the server's streaming path: how soon the first byte came and how fast the rest. */
export function useFileTest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (path: string) => postJson<FileTestResult>(apiPaths.fileTest, { path }, await currentCsrfToken(queryClient)),
  });
}
