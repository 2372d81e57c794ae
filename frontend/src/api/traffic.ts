import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getJson } from "./client";
import { apiPaths } from "./paths";
import type { TrafficRange, TrafficView } from "./types";

/** The Traffic page's view; the server writes its counts every minute, so the page asks again every minute. */
export function useTraffic(range: TrafficRange) {
  return useQuery({
    queryKey: ["traffic", range],
    queryFn: ({ signal }) => getJson<TrafficView>(apiPaths.traffic(range), signal),
    refetchInterval: 60_000,
    placeholderData: keepPreviousData,
  });
}
