import { useId, useState } from "react";
import { apiPaths } from "../../api/paths";
import { useDeleteEntity, useSaveEntity, useTestEntity } from "../../api/settings";
import type { Provider, ProviderTest } from "../../api/types";
import {
  asSaveRefusal,
  newProviderForm,
  providerForm,
  providerProblem,
  providerRequest,
  stepLine,
  testFigures,
  toggleRequest,
  type ProviderForm,
} from "../../lib/settings";
import { ListedItem } from "./ListedItem";
import { EditorFooter, useTestedEditor } from "./TestedEditor";

export function ProvidersCard({ providers }: { providers: Provider[] }) {
  const [adding, setAdding] = useState(false);
  return (
    <section className="card" aria-labelledby="providers-title">
      <div className="card-head">
        <h2 id="providers-title">Providers</h2>
        {!adding && (
          <button type="button" className="secondary" onClick={() => setAdding(true)}>
            Add provider
          </button>
        )}
      </div>
      {providers.length === 0 && <p className="muted">No provider yet: add the Usenet server the library streams from.</p>}
      {providers.length > 0 && (
        <ul className="provider-list" aria-label="Providers">
          {providers.map((p) => (
            <ProviderItem key={p.name} provider={p} />
          ))}
        </ul>
      )}
      {adding && <ProviderEditor title="Add provider" initial={newProviderForm} original={null} hasPassword={false} onDone={() => setAdding(false)} />}
    </section>
  );
}

function ProviderItem({ provider }: { provider: Provider }) {
  const toggle = useSaveEntity(apiPaths.providers);
  const remove = useDeleteEntity(apiPaths.providers);
  return (
    <ListedItem
      item={provider}
      pills={<span className="pill">{provider.role.toLowerCase()}</span>}
      facts={
        <>
          {provider.host}:{provider.port} · {provider.useTls ? (provider.allowUntrustedCertificate ? "TLS, any certificate" : "TLS") : "no TLS"} ·{" "}
          {provider.user ? `user ${provider.user}` : "no login"}
          {provider.hasPassword ? ", password stored" : ""} · {provider.maxConnections} connections · priority {provider.priority} · pipeline{" "}
          {provider.pipelineDepth}
        </>
      }
      testIds={{ state: "provider-state", source: "provider-source" }}
      onToggle={(enabled, settled) => toggle.mutate({ originalName: provider.name, request: toggleRequest(provider, enabled) }, { onSettled: settled })}
      toggling={toggle.isPending}
      onDelete={(settled) => remove.mutate(provider.name, { onSettled: settled })}
      deleting={remove.isPending}
      error={toggle.error ?? remove.error}
      deleteQuestion={<>Delete the provider {provider.name}? Its connections leave the budget at once.</>}
      deleteLabel="Delete provider"
      editor={(close) => (
        <ProviderEditor title={`Edit ${provider.name}`} initial={providerForm(provider)} original={provider.name} hasPassword={provider.hasPassword} onDone={close} />
      )}
    />
  );
}

/** The form to add or change a provider: Test tries it without saving; a save whose test fails offers "Save anyway". */
function ProviderEditor({
  title,
  initial,
  original,
  hasPassword,
  onDone,
}: {
  title: string;
  initial: ProviderForm;
  original: string | null;
  hasPassword: boolean;
  onDone: () => void;
}) {
  const id = useId();
  const [form, setForm] = useState(initial);
  const test = useTestEntity<ProviderTest>(apiPaths.providers);
  const save = useSaveEntity(apiPaths.providers);
  const refusal = asSaveRefusal(save.error);
  const set = (patch: Partial<ProviderForm>) => setForm((f) => ({ ...f, ...patch }));
  const { runTest, send, submit, failure } = useTestedEditor({
    check: () => providerProblem(form),
    test,
    save,
    testVars: () => providerRequest(form, { originalName: original }),
    saveVars: (force) => ({ originalName: original, request: providerRequest(form, { force }) }),
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
          <input id={field("name")} value={form.name} onChange={(e) => set({ name: e.target.value })} autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor={field("host")}>Host</label>
          <input id={field("host")} value={form.host} onChange={(e) => set({ host: e.target.value })} placeholder="news.example.com" autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor={field("port")}>Port</label>
          <input id={field("port")} type="number" inputMode="numeric" min={1} max={65535} value={form.port} onChange={(e) => set({ port: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor={field("user")}>User</label>
          <input id={field("user")} value={form.user} onChange={(e) => set({ user: e.target.value })} autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor={field("password")}>Password</label>
          <input
            id={field("password")}
            type="password"
            autoComplete="new-password"
            value={form.password}
            disabled={form.removePassword}
            placeholder={hasPassword ? "stored — leave empty to keep" : ""}
            onChange={(e) => set({ password: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={field("connections")}>Max connections</label>
          <input
            id={field("connections")}
            type="number"
            inputMode="numeric"
            min={1}
            max={500}
            value={form.maxConnections}
            onChange={(e) => set({ maxConnections: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={field("role")}>Role</label>
          <select id={field("role")} value={form.role} onChange={(e) => set({ role: e.target.value === "Backup" ? "Backup" : "Primary" })}>
            <option value="Primary">Primary</option>
            <option value="Backup">Backup</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor={field("priority")}>Priority</label>
          <input
            id={field("priority")}
            type="number"
            inputMode="numeric"
            min={0}
            max={1000}
            value={form.priority}
            onChange={(e) => set({ priority: e.target.value })}
            aria-describedby={field("priority-help")}
          />
          <span id={field("priority-help")} className="muted small">
            Lower is tried first.
          </span>
        </div>
        <div className="field">
          <label htmlFor={field("depth")}>Pipeline depth</label>
          <input
            id={field("depth")}
            type="number"
            inputMode="numeric"
            min={1}
            max={64}
            value={form.pipelineDepth}
            onChange={(e) => set({ pipelineDepth: e.target.value })}
          />
        </div>
      </div>
      <div className="checks">
        <label className="check">
          <input type="checkbox" checked={form.useTls} onChange={(e) => set({ useTls: e.target.checked })} />
          TLS
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={form.allowUntrustedCertificate}
            disabled={!form.useTls}
            onChange={(e) => set({ allowUntrustedCertificate: e.target.checked })}
          />
          Allow untrusted certificate
        </label>
        <label className="check">
          <input type="checkbox" checked={form.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
          Enabled
        </label>
        {hasPassword && (
          <label className="check">
            <input type="checkbox" checked={form.removePassword} onChange={(e) => set({ removePassword: e.target.checked })} />
            Remove the stored password
          </label>
        )}
      </div>

      <EditorFooter
        failure={failure}
        refusal={refusal && { error: refusal.error, test: <TestResult result={refusal.test} /> }}
        tested={test.data && <TestResult result={test.data} announce />}
        testing={test.isPending}
        saving={save.isPending}
        onTest={runTest}
        onForce={() => send(true)}
        onCancel={onDone}
      />
    </form>
  );
}

/** A provider test's steps (✓/✗, time, detail) and what it measured; `announce` makes a failure an alert. */
function TestResult({ result, announce = false }: { result: ProviderTest; announce?: boolean }) {
  const figures = testFigures(result);
  return (
    <div className={`test-result ${result.ok ? "ok" : "failed"}`} data-testid="provider-test">
      {result.ok ? (
        <p className="passed" role="status">
          Test passed
        </p>
      ) : announce ? (
        <p className="error" role="alert">
          Test failed: {result.error}
        </p>
      ) : null}
      <ul className="test-steps" aria-label="Test steps">
        {result.steps.map((step, i) => (
          <li key={`${step.step}-${i}`} className={step.ok ? "step-ok" : "step-failed"}>
            {stepLine(step)}
          </li>
        ))}
      </ul>
      {figures.length > 0 && (
        <ul className="test-figures" aria-label="Test figures">
          {figures.map((f) => (
            <li key={f}>{f}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
