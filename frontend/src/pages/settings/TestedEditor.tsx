import { useState, type FormEvent, type ReactNode } from "react";

/** A mutation as the editors use it: start it, forget its last outcome, read its error. */
interface EditorMutation<V> {
  mutate(variables: V, options?: { onSuccess?: () => void }): void;
  reset(): void;
  error: Error | null;
}

/**
 * What a provider's and an instance's editor do alike: check the form before anything is sent,
 * test it (forgetting a refused save), save it (forgetting the last test; forced after a refused
 * test) and close on success, and say the one failure worth showing.
 */
export function useTestedEditor<T, S>({
  check,
  test,
  save,
  testVars,
  saveVars,
  refused,
  onDone,
}: {
  check: () => string | null;
  test: EditorMutation<T>;
  save: EditorMutation<S>;
  testVars: () => T;
  saveVars: (force: boolean) => S;
  refused: boolean;
  onDone: () => void;
}) {
  const [problem, setProblem] = useState<string | null>(null);

  function valid(): boolean {
    const local = check();
    setProblem(local);
    return local === null;
  }

  function runTest() {
    if (!valid()) return;
    save.reset();
    test.mutate(testVars());
  }

  function send(force: boolean) {
    if (!valid()) return;
    test.reset();
    save.mutate(saveVars(force), { onSuccess: onDone });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    send(false);
  }

  const failure = problem ?? (save.error && !refused ? save.error.message : null) ?? (test.error ? test.error.message : null);
  return { runTest, send, submit, failure };
}

/**
 * The end of a provider's or an instance's form: the last error, a save refused because the test
 * failed (with that test and "Save anyway"), the latest test, and Test / Save / Cancel.
 */
export function EditorFooter({
  failure,
  refusal,
  tested,
  testing,
  saving,
  onTest,
  onForce,
  onCancel,
}: {
  failure: string | null | undefined;
  refusal: { error: string; test: ReactNode } | null | undefined;
  tested: ReactNode;
  testing: boolean;
  saving: boolean;
  onTest: () => void;
  onForce: () => void;
  onCancel: () => void;
}) {
  return (
    <>
      {failure && (
        <p role="alert" className="error">
          {failure}
        </p>
      )}
      {refusal && (
        <div className="refusal">
          <p role="alert" className="error">
            {refusal.error}
          </p>
          {refusal.test}
          <button type="button" className="danger" disabled={saving} onClick={onForce}>
            Save anyway
          </button>
        </div>
      )}
      {tested}

      <div className="job-actions">
        <button type="button" className="secondary" disabled={testing || saving} onClick={onTest}>
          {testing ? "Testing…" : "Test"}
        </button>
        <button type="submit" disabled={saving || testing}>
          {saving ? "Saving…" : "Save"}
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </>
  );
}
