import { useEffect, useRef, useState } from "react";

/**
 * Copies with the Clipboard API, which browsers offer only on https or localhost; elsewhere (a LAN
 * address over http) it shows the text selected in a read-only box, for the user to copy. `name`
 * says what is copied to assistive technology ("Copy host") where several buttons read "Copy".
 */
export function CopyButton({ label, text, name }: { label: string; text: string | null | undefined; name?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "manual">("idle");
  const box = useRef<HTMLInputElement & HTMLTextAreaElement>(null);

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

  const accessibleName = name ? `${label} ${name}` : label;
  const multiline = text.includes("\n");
  return (
    <span className={multiline ? "copy multiline" : "copy"}>
      <button type="button" className="secondary" onClick={() => void copy()} aria-label={name ? accessibleName : undefined}>
        {label}
      </button>
      {/* Always there, so "Copied" appearing does not push the buttons beside it. */}
      <span role="status" className="copied">
        {state === "copied" ? "Copied" : ""}
      </span>
      {state === "manual" &&
        (multiline ? (
          <textarea
            ref={box}
            className="copy-box"
            readOnly
            value={text}
            rows={Math.min(12, text.split("\n").length)}
            aria-label={`${accessibleName}: copy this text`}
            onFocus={(e) => e.currentTarget.select()}
          />
        ) : (
          <input ref={box} className="copy-box" readOnly value={text} aria-label={`${accessibleName}: copy this text`} onFocus={(e) => e.currentTarget.select()} />
        ))}
    </span>
  );
}
