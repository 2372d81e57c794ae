import { useEffect, useRef, useState } from "react";

/**
 * Copies with the Clipboard API, which browsers offer only on https or localhost; elsewhere (a LAN
 * address over http) it shows the text selected in a read-only box, for the user to copy.
 */
export function CopyButton({ label, text }: { label: string; text: string | null | undefined }) {
  const [state, setState] = useState<"idle" | "copied" | "manual">("idle");
  const box = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (state === "manual") box.current?.select();
    if (state !== "copied") return;
    const timer = window.setTimeout(() => setState("idle"), 2_000);
    return () => window.clearTimeout(timer);
  }, [state]);

  if (!text) return null;

  async function copy() {
    try {
      if (!navigator.clipboard) throw new Error("no clipboard");
      await navigator.clipboard.writeText(text!);
      setState("copied");
    } catch {
      setState("manual");
    }
  }

  return (
    <span className="copy">
      <button type="button" className="secondary" onClick={() => void copy()}>
        {label}
      </button>
      {state === "copied" && <span role="status">Copied</span>}
      {state === "manual" && (
        <input ref={box} className="copy-box" readOnly value={text} aria-label={`${label}: copy this text`} onFocus={(e) => e.currentTarget.select()} />
      )}
    </span>
  );
}
