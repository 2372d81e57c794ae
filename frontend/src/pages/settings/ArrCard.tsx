import { useId, useState } from "react";
import { Link } from "react-router";
import { apiPaths } from "../../api/paths";
import { useDeleteEntity, useSaveEntity, useTestEntity } from "../../api/settings";
import type { ArrInstance, ArrTest } from "../../api/types";
import {
  arrFacts,
  arrForm,
  arrProblem,
  arrRequest,
  arrTestLine,
  arrToggleRequest,
  asArrSaveRefusal,
  maxArrTimeoutSeconds,
  newArrForm,
  urlPlaceholder,
  type ArrForm,
} from "../../lib/arr";
import { ListedItem } from "./ListedItem";
import { EditorFooter, useTestedEditor } from "./TestedEditor";

export function ArrCard({ instances }: { instances: ArrInstance[] }) {
  const [adding, setAdding] = useState(false);
  return (
    <section className="card" aria-labelledby="arr-title">
      <div className="card-head">
        <h2 id="arr-title">Sonarr and Radarr</h2>
        {!adding && (
          <button type="button" className="secondary" onClick={() => setAdding(true)}>
            Add Sonarr/Radarr
          </button>
        )}
      </div>
      <p className="muted small">
        A Broken file is repaired through the instance that grabbed it: the grab is marked failed, its file record deleted and a replacement searched
        for. Without one, a Broken file waits for you on the <Link to="/health">Health page</Link>.
      </p>
      {instances.length === 0 && <p className="muted">No Sonarr or Radarr yet.</p>}
      {instances.length > 0 && (
        <ul className="provider-list" aria-label="Sonarr and Radarr instances">
          {instances.map((a) => (
            <ArrItem key={a.name} instance={a} />
          ))}
        </ul>
      )}
      {adding && <ArrEditor title="Add Sonarr/Radarr" initial={newArrForm} original={null} hasApiKey={false} onDone={() => setAdding(false)} />}
    </section>
  );
}

function ArrItem({ instance }: { instance: ArrInstance }) {
  const toggle = useSaveEntity(apiPaths.arr);
  const remove = useDeleteEntity(apiPaths.arr);
  return (
    <ListedItem
      item={instance}
      pills={
        <span className="pill" data-testid="arr-kind">
          {instance.kind}
        </span>
      }
      facts={arrFacts(instance)}
      testIds={{ state: "arr-state", source: "arr-source", facts: "arr-facts" }}
      onToggle={(enabled, settled) => toggle.mutate({ originalName: instance.name, request: arrToggleRequest(instance, enabled) }, { onSettled: settled })}
      toggling={toggle.isPending}
      onDelete={(settled) => remove.mutate(instance.name, { onSettled: settled })}
      deleting={remove.isPending}
      error={toggle.error ?? remove.error}
      deleteQuestion={<>Delete {instance.name}? Broken files it grabbed can no longer be repaired through it.</>}
      deleteLabel={<>Delete {instance.kind}</>}
      editor={(close) => (
        <ArrEditor title={`Edit ${instance.name}`} initial={arrForm(instance)} original={instance.name} hasApiKey={instance.hasApiKey} onDone={close} />
      )}
    />
  );
}

/** The form to add or change a Sonarr/Radarr: Test calls its system/status without saving; a save whose test fails offers "Save anyway". */
function ArrEditor({
  title,
  initial,
  original,
  hasApiKey,
  onDone,
}: {
  title: string;
  initial: ArrForm;
  original: string | null;
  hasApiKey: boolean;
  onDone: () => void;
}) {
  const id = useId();
  const [form, setForm] = useState(initial);
  const test = useTestEntity<ArrTest>(apiPaths.arr);
  const save = useSaveEntity(apiPaths.arr);
  const refusal = asArrSaveRefusal(save.error);
  const set = (patch: Partial<ArrForm>) => setForm((f) => ({ ...f, ...patch }));
  const { runTest, send, submit, failure } = useTestedEditor({
    check: () => arrProblem(form, hasApiKey),
    test,
    save,
    testVars: () => arrRequest(form, { originalName: original }),
    saveVars: (force) => ({ originalName: original, request: arrRequest(form, { force }) }),
    refused: refusal !== null,
    onDone,
  });

  const field = (name: string) => `${id}-${name}`;
  return (
    <form className="provider-editor" onSubmit={submit} noValidate aria-labelledby={field("title")}>
      <h3 id={field("title")}>{title}</h3>
      <div className="options">
        <div className="field">
          <label htmlFor={field("name")}>Name</label>
          <input id={field("name")} value={form.name} onChange={(e) => set({ name: e.target.value })} placeholder="sonarr" autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor={field("kind")}>Kind</label>
          <select id={field("kind")} value={form.kind} onChange={(e) => set({ kind: e.target.value === "Radarr" ? "Radarr" : "Sonarr" })}>
            <option value="Sonarr">Sonarr</option>
            <option value="Radarr">Radarr</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor={field("url")}>URL</label>
          <input
            id={field("url")}
            type="url"
            inputMode="url"
            value={form.url}
            onChange={(e) => set({ url: e.target.value })}
            placeholder={urlPlaceholder(form.kind)}
            autoComplete="off"
            spellCheck={false}
            aria-describedby={field("url-help")}
          />
          <span id={field("url-help")} className="muted small">
            With its URL base, if it has one.
          </span>
        </div>
        <div className="field">
          <label htmlFor={field("key")}>API key</label>
          <input
            id={field("key")}
            type="password"
            autoComplete="new-password"
            value={form.apiKey}
            placeholder={hasApiKey ? "stored — leave empty to keep" : ""}
            onChange={(e) => set({ apiKey: e.target.value })}
            aria-describedby={field("key-help")}
          />
          <span id={field("key-help")} className="muted small">
            In {form.kind}: Settings → General.
          </span>
        </div>
        <div className="field">
          <label htmlFor={field("categories")}>Categories</label>
          <input
            id={field("categories")}
            value={form.categories}
            onChange={(e) => set({ categories: e.target.value })}
            placeholder="any category"
            autoComplete="off"
            aria-describedby={field("categories-help")}
          />
          <span id={field("categories-help")} className="muted small">
            The SABnzbd categories it sends, comma-separated.
          </span>
        </div>
        <div className="field">
          <label htmlFor={field("timeout")}>Timeout (s)</label>
          <input
            id={field("timeout")}
            type="number"
            inputMode="numeric"
            min={1}
            max={maxArrTimeoutSeconds}
            value={form.timeoutSeconds}
            onChange={(e) => set({ timeoutSeconds: e.target.value })}
          />
        </div>
      </div>
      <div className="checks">
        <label className="check">
          <input type="checkbox" checked={form.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
          Enabled
        </label>
      </div>

      <EditorFooter
        failure={failure}
        refusal={refusal && { error: refusal.error, test: <ArrTestResult result={refusal.test} /> }}
        tested={test.data && <ArrTestResult result={test.data} announce />}
        testing={test.isPending}
        saving={save.isPending}
        onTest={runTest}
        onForce={() => send(true)}
        onCancel={onDone}
      />
    </form>
  );
}

/** An instance test's outcome; `announce` makes it a status or alert as it arrives. */
function ArrTestResult({ result, announce = false }: { result: ArrTest; announce?: boolean }) {
  const role = announce ? (result.ok ? "status" : "alert") : undefined;
  return (
    <div className={`test-result ${result.ok ? "ok" : "failed"}`} data-testid="arr-test">
      <p className={result.ok ? "passed" : "error"} role={role}>
        {arrTestLine(result)}
      </p>
    </div>
  );
}
