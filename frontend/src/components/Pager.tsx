import { useEffect } from "react";
import { pageCount, pageRange } from "../lib/jobs";

/**
 * Previous, "26–50 of 73" and Next under a paged list. Entries that leave the last page (deleted,
 * repaired, now in another state) would leave it empty, so it steps back to the new last page; it
 * does so even while `hideSinglePage` hides it, as a shrunk list is exactly when that happens.
 */
export function Pager({
  page,
  pageSize,
  total,
  onPage,
  hideSinglePage = false,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  hideSinglePage?: boolean;
}) {
  const pages = pageCount(pageSize, total);

  useEffect(() => {
    if (page > pages) onPage(pages);
  }, [page, pages, onPage]);

  if (hideSinglePage && pages <= 1) return null;
  return (
    <div className="pager">
      <button type="button" className="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span data-testid="page-range">{pageRange(page, pageSize, total)}</span>
      <button type="button" className="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </div>
  );
}
