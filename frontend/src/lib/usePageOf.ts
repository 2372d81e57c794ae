import { useCallback, useState } from "react";

/**
 * The page of a paged list that starts again from 1 whenever `key` (the search or filter being paged)
 * changes. The page is kept together with the key it belongs to, so the first render after a change
 * already asks for page 1 instead of the old page of the new list.
 */
export function usePageOf(key: string): [number, (page: number) => void] {
  const [paged, setPaged] = useState({ key, page: 1 });
  const page = paged.key === key ? paged.page : 1;
  const setPage = useCallback((next: number) => setPaged({ key, page: next }), [key]);
  return [page, setPage];
}
