import { useId, useState, type FormEvent, type ReactNode } from "react";
import { Link } from "react-router";
import {
  useDeleteArr,
  useDeleteProvider,
  useRegenerateApiKey,
  useSaveArr,
  useSaveProvider,
  useSaveSettings,
  useSaveWebDav,
  useSettings,
  useTestArr,
  useTestProvider,
} from "../api/settings";
import type { ArrInstance, ArrTest, Budget, Provider, ProviderTest, SettingsView, Setting } from "../api/types";
import { CopyButton } from "../components/CopyButton";
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
} from "../lib/arr";
import {
  asSaveRefusal,
  bytesHint,
  changedValues,
  groupBySection,
  masked,
  newProviderForm,
  placeholderOf,
  providerForm,
  providerProblem,
  providerRequest,
  shownValue,
  sourceNote,
  stepLine,
  testFigures,
  toggleRequest,
  webDavProblem,
  type ProviderForm,
} from "../lib/settings";

/**
 * Providers, the connection budget and the settings the server takes at runtime. Every save is in
 * effect at once; values set in the environment or on the command line are shown but locked.
 */
export function SettingsPage() {
  const settings = useSettings();
  const data = settings.data;

  return (
    <div className="page settings">
      <div className="title-row">
        <h1>Settings</h1>
      </div>
      {settings.isPending && <p className="muted">Loading…</p>}
      {settings.isError && (
        <p role="alert" className="error">
          {settings.error.message}
        </p>
      )}
      {data && <Cards data={data} />}
    </div>
  );
}

function Cards({ data }: { data: SettingsView }) {
  const groups = groupBySection(data.settings);
  return (
    <>
      <ProvidersCard providers={data.providers} />
      <BudgetCard budget={data.budget} settings={groups.Connections} />
      <SettingsCard title="Streaming" settings={groups.Streaming} />
      <SettingsCard title="Queue" settings={groups.Queue} />
      <SettingsCard title="SABnzbd" settings={groups.SABnzbd}>
        <ApiKeyBlock apiKey={data.sab.apiKey} locked={data.sab.apiKeyLocked} />
      </SettingsCard>
      <ArrCard instances={data.arr} />
      {groups.Health.length > 0 && <SettingsCard title="Health" settings={groups.Health} />}
      <SettingsCard title="WebDAV" settings={groups.WebDAV}>
        <WebDavAccountBlock user={data.webDav.user} userLocked={data.webDav.userLocked} passwordLocked={data.webDav.passwordLocked} />
      </SettingsCard>
      <section className="card" aria-labelledby="account-link-title">
        <h2 id="account-link-title">Account</h2>
        <p className="muted flush">
          The administrator's password is changed on the <Link to="/account">Account page</Link>.
        </p>
      </section>
    </>
  );
}

/* Providers */

function ProvidersCard({ providers }: { providers: Provider[] }) {
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
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const toggle = useSaveProvider();
  const remove = useDeleteProvider();
  // Set in the click itself: the mutation's pending state arrives a tick later, and a controlled
  // checkbox would snap back in between.
  const [wanted, setWanted] = useState<boolean | null>(null);
  const enabled = wanted ?? provider.enabled;
  const error = toggle.error ?? remove.error;

  return (
    <li className="provider" aria-label={provider.name}>
      <div className="job-head">
        <span className="job-name">{provider.name}</span>
        <span className="pill">{provider.role.toLowerCase()}</span>
        <span className={`pill ${enabled ? "completed" : "paused"}`} data-testid="provider-state">
          {enabled ? "enabled" : "disabled"}
        </span>
        <span className="pill" data-testid="provider-source">
          from {provider.source}
        </span>
      </div>
      <div className="muted small provider-facts">
        {provider.host}:{provider.port} · {provider.useTls ? (provider.allowUntrustedCertificate ? "TLS, any certificate" : "TLS") : "no TLS"} ·{" "}
        {provider.user ? `user ${provider.user}` : "no login"}
        {provider.hasPassword ? ", password stored" : ""} · {provider.maxConnections} connections · priority {provider.priority} · pipeline{" "}
        {provider.pipelineDepth}
      </div>
      {provider.editable && !editing && (
        <div className="job-actions">
          <label className="inline check">
            <input
              type="checkbox"
              checked={enabled}
              disabled={toggle.isPending}
              onChange={(e) => {
                setWanted(e.target.checked);
                toggle.mutate({ originalName: provider.name, request: toggleRequest(provider, e.target.checked) }, { onSettled: () => setWanted(null) });
              }}
            />
            Enabled
          </label>
          <button type="button" className="secondary" onClick={() => setEditing(true)}>
            Edit
          </button>
          {!confirming && (
            <button type="button" className="danger" onClick={() => setConfirming(true)}>
              Delete
            </button>
          )}
        </div>
      )}
      {!provider.editable && <p className="muted small flush">Read-only here: change it where it is configured ({provider.source}).</p>}
      {confirming && (
        <div className="confirm" role="group" aria-label="Confirm delete">
          <span>Delete the provider {provider.name}? Its connections leave the budget at once.</span>
          <button
            type="button"
            className="danger"
            disabled={remove.isPending}
            onClick={() => remove.mutate(provider.name, { onSettled: () => setConfirming(false) })}
          >
            Delete provider
          </button>
          <button type="button" className="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      )}
      {editing && (
        <ProviderEditor
          title={`Edit ${provider.name}`}
          initial={providerForm(provider)}
          original={provider.name}
          hasPassword={provider.hasPassword}
          onDone={() => setEditing(false)}
        />
      )}
      {error && (
        <p role="alert" className="error">
          {error.message}
        </p>
      )}
    </li>
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
  const test = useTestProvider();
  const save = useSaveProvider();
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
function useTestedEditor<T, S>({
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
function EditorFooter({
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

/* Sonarr and Radarr */

function ArrCard({ instances }: { instances: ArrInstance[] }) {
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
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const toggle = useSaveArr();
  const remove = useDeleteArr();
  // Set in the click itself, as for providers: the checkbox must not snap back before the answer.
  const [wanted, setWanted] = useState<boolean | null>(null);
  const enabled = wanted ?? instance.enabled;
  const error = toggle.error ?? remove.error;

  return (
    <li className="provider" aria-label={instance.name}>
      <div className="job-head">
        <span className="job-name">{instance.name}</span>
        <span className="pill" data-testid="arr-kind">
          {instance.kind}
        </span>
        <span className={`pill ${enabled ? "completed" : "paused"}`} data-testid="arr-state">
          {enabled ? "enabled" : "disabled"}
        </span>
        <span className="pill" data-testid="arr-source">
          from {instance.source}
        </span>
      </div>
      <div className="muted small provider-facts" data-testid="arr-facts">
        {arrFacts(instance)}
      </div>
      {instance.editable && !editing && (
        <div className="job-actions">
          <label className="inline check">
            <input
              type="checkbox"
              checked={enabled}
              disabled={toggle.isPending}
              onChange={(e) => {
                setWanted(e.target.checked);
                toggle.mutate({ originalName: instance.name, request: arrToggleRequest(instance, e.target.checked) }, { onSettled: () => setWanted(null) });
              }}
            />
            Enabled
          </label>
          <button type="button" className="secondary" onClick={() => setEditing(true)}>
            Edit
          </button>
          {!confirming && (
            <button type="button" className="danger" onClick={() => setConfirming(true)}>
              Delete
            </button>
          )}
        </div>
      )}
      {!instance.editable && <p className="muted small flush">Read-only here: change it where it is configured ({instance.source}).</p>}
      {confirming && (
        <div className="confirm" role="group" aria-label="Confirm delete">
          <span>Delete {instance.name}? Broken files it grabbed can no longer be repaired through it.</span>
          <button
            type="button"
            className="danger"
            disabled={remove.isPending}
            onClick={() => remove.mutate(instance.name, { onSettled: () => setConfirming(false) })}
          >
            Delete {instance.kind}
          </button>
          <button type="button" className="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      )}
      {editing && (
        <ArrEditor
          title={`Edit ${instance.name}`}
          initial={arrForm(instance)}
          original={instance.name}
          hasApiKey={instance.hasApiKey}
          onDone={() => setEditing(false)}
        />
      )}
      {error && (
        <p role="alert" className="error">
          {error.message}
        </p>
      )}
    </li>
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
  const test = useTestArr();
  const save = useSaveArr();
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

/* The connection budget and generic settings */

function BudgetCard({ budget, settings }: { budget: Budget; settings: Setting[] }) {
  return (
    <section className="card" aria-labelledby="budget-title">
      <h2 id="budget-title">Connection budget</h2>
      <p className="muted">
        {budget.inUse} of {budget.capacity} connections in use. Streaming keeps what the queue and health checks are not guaranteed, and
        at least half.
      </p>
      <div className="budget">
        <div className="table-scroll">
          <table aria-label="Connection pools">
            <thead>
              <tr>
                <th>Pool</th>
                <th className="numeric">In use</th>
                <th className="numeric">Guaranteed</th>
                <th className="numeric">Maximum</th>
                <th className="numeric">Waiting</th>
              </tr>
            </thead>
            <tbody>
              {budget.pools.map((pool) => {
                const testId = `budget-${pool.name.replace(/\s+/g, "-")}`;
                return (
                  <tr key={pool.name} data-testid={testId}>
                    <td>{pool.name}</td>
                    <td className="numeric">{pool.inUse}</td>
                    <td className="numeric" data-testid={`${testId}-guaranteed`}>
                      {pool.guaranteed}
                    </td>
                    <td className="numeric">{pool.maximum}</td>
                    <td className="numeric">{pool.waiting}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        <SettingsForm settings={settings} label="Connection shares" />
      </div>
    </section>
  );
}

function SettingsCard({ title, settings, children }: { title: string; settings: Setting[]; children?: ReactNode }) {
  const id = useId();
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {settings.length > 0 && <SettingsForm settings={settings} label={`${title} settings`} />}
      {children}
    </section>
  );
}

/** Fields built from the settings' definitions; Save sends only what changed, Reset drops the UI's own value. */
function SettingsForm({ settings, label }: { settings: Setting[]; label: string }) {
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const save = useSaveSettings();
  const changes = changedValues(settings, edits);
  const changed = Object.keys(changes).length;

  function edit(key: string, value: string) {
    setSaved(false);
    save.reset();
    setEdits((e) => ({ ...e, [key]: value }));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (changed === 0) return;
    setSaved(false);
    save.mutate(changes, {
      onSuccess: () => {
        setEdits({});
        setSaved(true);
      },
    });
  }

  function reset(key: string) {
    setSaved(false);
    save.mutate(
      { [key]: null },
      {
        onSuccess: () => {
          setEdits(({ [key]: _dropped, ...rest }) => rest);
          setSaved(true);
        },
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-label={label}>
      <div className="setting-fields">
        {settings.map((s) => (
          <SettingField key={s.key} setting={s} value={shownValue(s, edits)} busy={save.isPending} onChange={(v) => edit(s.key, v)} onReset={() => reset(s.key)} />
        ))}
      </div>
      {save.isError && (
        <p role="alert" className="error">
          {save.error.message}
        </p>
      )}
      {saved && !save.isError && (
        <p role="status" className="saved">
          Saved — in effect now
        </p>
      )}
      <button type="submit" disabled={save.isPending || changed === 0}>
        {save.isPending ? "Saving…" : "Save"}
      </button>
    </form>
  );
}

function SettingField({
  setting,
  value,
  busy,
  onChange,
  onReset,
}: {
  setting: Setting;
  value: string;
  busy: boolean;
  onChange: (value: string) => void;
  onReset: () => void;
}) {
  const id = useId();
  const helpId = `${id}-help`;
  const note = sourceNote(setting);
  const common = { id, disabled: setting.locked, "aria-describedby": helpId };

  let control: ReactNode;
  if (setting.type === "Boolean") {
    control = (
      <label className="check">
        <input type="checkbox" {...common} checked={value === "true"} onChange={(e) => onChange(e.target.checked ? "true" : "false")} />
        {setting.label}
      </label>
    );
  } else if (setting.type === "Choice") {
    const choices = setting.choices ?? [];
    control = (
      <select {...common} value={value} onChange={(e) => onChange(e.target.value)}>
        {!choices.includes(value) && <option value={value}>{value || "–"}</option>}
        {choices.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    );
  } else if (setting.type === "Number" || setting.type === "Bytes") {
    control = (
      <input
        {...common}
        type="number"
        inputMode="numeric"
        step={1}
        min={setting.min ?? undefined}
        max={setting.max ?? undefined}
        placeholder={placeholderOf(setting)}
        title={placeholderOf(setting) || undefined}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  } else {
    control = (
      <input
        {...common}
        type="text"
        placeholder={placeholderOf(setting)}
        title={placeholderOf(setting) || undefined}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        autoComplete="off"
        spellCheck={false}
      />
    );
  }

  return (
    <div className="field setting">
      {setting.type !== "Boolean" && (
        <div className="field-head">
          <label htmlFor={id}>{setting.label}</label>
          {setting.type === "Bytes" && (
            <span className="muted small" data-testid={`hint-${setting.key}`}>
              {bytesHint(value) ?? ""}
            </span>
          )}
        </div>
      )}
      {control}
      <p id={helpId} className="muted small help">
        {setting.help}
        {note && <span className={setting.locked ? "locked-note" : undefined}> · {note}</span>}
        {setting.stored && !setting.locked && (
          <>
            {" · "}
            <button type="button" className="link" disabled={busy} onClick={onReset} aria-label={`Reset ${setting.label}`}>
              Reset
            </button>
          </>
        )}
      </p>
    </div>
  );
}

/* SABnzbd's API key and the WebDAV account */

function ApiKeyBlock({ apiKey, locked }: { apiKey: string; locked: boolean }) {
  const id = useId();
  const [shown, setShown] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const regenerate = useRegenerateApiKey();

  return (
    <div className="subsection" role="group" aria-labelledby={id}>
      <h3 id={id}>API key</h3>
      <p className="muted small">Sonarr and Radarr send it with every call: paste it into their SABnzbd download client.</p>
      <div className="key-row">
        <code className="api-key" data-testid="api-key">
          {shown ? apiKey : masked(apiKey)}
        </code>
        <button type="button" className="secondary" aria-pressed={shown} onClick={() => setShown(!shown)}>
          {shown ? "Hide" : "Show"}
        </button>
        <CopyButton label="Copy" text={apiKey} />
        {!locked && !confirming && (
          <button
            type="button"
            className="danger"
            onClick={() => {
              regenerate.reset();
              setConfirming(true);
            }}
          >
            Regenerate
          </button>
        )}
      </div>
      {locked && <p className="muted small">The key is set in the configuration (NzbDav:ApiKey); change it there.</p>}
      {confirming && (
        <div className="confirm" role="group" aria-label="Confirm regenerate">
          <span>Sonarr/Radarr stop working until you paste the new key.</span>
          <button
            type="button"
            className="danger"
            disabled={regenerate.isPending}
            onClick={() => regenerate.mutate(undefined, { onSettled: () => setConfirming(false) })}
          >
            Regenerate key
          </button>
          <button type="button" className="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      )}
      {regenerate.isError && (
        <p role="alert" className="error">
          {regenerate.error.message}
        </p>
      )}
      {regenerate.isSuccess && <p role="status">New key in effect: paste it into Sonarr and Radarr.</p>}
    </div>
  );
}

function WebDavAccountBlock({ user, userLocked, passwordLocked }: { user: string; userLocked: boolean; passwordLocked: boolean }) {
  const id = useId();
  const [typedUser, setTypedUser] = useState<string | null>(null);
  const [password, setPassword] = useState("");
  const [again, setAgain] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSaveWebDav();
  const shownUser = typedUser ?? user;
  const locked = userLocked && passwordLocked;

  function submit(event: FormEvent) {
    event.preventDefault();
    const local = webDavProblem(shownUser, password, again);
    setProblem(local);
    if (local) return;
    save.mutate(
      { user: shownUser.trim(), password: password === "" ? null : password },
      {
        onSuccess: () => {
          setTypedUser(null);
          setPassword("");
          setAgain("");
        },
      },
    );
  }

  const failure = problem ?? save.error?.message ?? null;
  return (
    <form className="subsection" onSubmit={submit} noValidate aria-labelledby={id}>
      <h3 id={id}>WebDAV account</h3>
      <p className="muted small flush">What rclone and players log in with. A change applies at once: rclone needs the new credentials.</p>
      <div className="options">
        <div className="field">
          <label htmlFor={`${id}-user`}>WebDAV user</label>
          <input
            id={`${id}-user`}
            value={shownUser}
            disabled={userLocked}
            autoComplete="off"
            onChange={(e) => {
              save.reset();
              setTypedUser(e.target.value);
            }}
          />
          {userLocked && <span className="muted small locked-note">set by the environment or the command line</span>}
        </div>
        <div className="field">
          <label htmlFor={`${id}-password`}>New WebDAV password</label>
          <input
            id={`${id}-password`}
            type="password"
            autoComplete="new-password"
            value={password}
            disabled={passwordLocked}
            placeholder={passwordLocked ? "" : "leave empty to keep"}
            onChange={(e) => {
              save.reset();
              setPassword(e.target.value);
            }}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-again`}>New WebDAV password again</label>
          <input id={`${id}-again`} type="password" autoComplete="new-password" value={again} disabled={passwordLocked} onChange={(e) => setAgain(e.target.value)} />
        </div>
      </div>
      {passwordLocked && (
        <p className="muted small flush locked-note">The password is set in the configuration (NzbDav:WebDav:Password); change it there.</p>
      )}
      {failure && (
        <p role="alert" className="error">
          {failure}
        </p>
      )}
      {save.isSuccess && !failure && <p role="status">Saved — in effect now. Give rclone the new credentials.</p>}
      <button type="submit" disabled={locked || save.isPending}>
        {save.isPending ? "Saving…" : "Save account"}
      </button>
    </form>
  );
}
