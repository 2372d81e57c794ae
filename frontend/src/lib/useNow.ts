import { useEffect, useState } from "react";

/** The time (ms since the epoch), renewed every `ms`: relative times ("2 min ago") move on while the page stays open. */
export function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), ms);
    return () => window.clearInterval(timer);
  }, [ms]);
  return now;
}
