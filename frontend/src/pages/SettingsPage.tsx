import { useId, useState, type FormEvent, type ReactNode } from "react";
import { Link } from "react-router";
import { useRegenerateApiKey, useSaveSettings, useSaveWebDav, useSettings } from "../api/settings";
import type { Budget, SettingsView, Setting } from "../api/types";
import { MountStatus } from "../components/MountStatus";
import { useMountState } from "../api/integrations";
import { CopyButton } from "../components/CopyButton";
import { CheckField, Field } from "../components/Field";
import { bytesHint, changedValues, fieldOfRefusal, fieldProblems, groupBySection, masked, placeholderOf, shownValue, sourceNote, webDavProblem } from "../lib/settings";
import { ArrCard } from "./settings/ArrCard";
import { ProvidersCard } from "./settings/ProvidersCard";

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
      <section className="card" aria-labelledby="integrations-link-title">
        <h2 id="integrations-link-title">Integrations</h2>
        <p className="muted flush">
          The values to enter in Sonarr/Radarr, the rclone remote and mount, docker-compose and Plex/Jellyfin, the mount's state and a check
          of it: <Link to="/settings/integrations">Integrations</Link>.
        </p>
      </section>
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
      <ProvidersCard providers={data.providers} fields={data.providerFields} />
      <BudgetCard budget={data.budget} settings={groups.Connections} />
      <SettingsCard title="Bandwidth" settings={groups.Bandwidth} />
      <SettingsCard title="Streaming" settings={groups.Streaming} />
      <SettingsCard title="Disk cache" settings={groups["Disk cache"]} />
      <SettingsCard title="Queue" settings={groups.Queue} />
      <SettingsCard title="SABnzbd" settings={groups.SABnzbd}>
        <ApiKeyBlock apiKey={data.sab.apiKey} locked={data.sab.apiKeyLocked} />
      </SettingsCard>
      <ArrCard instances={data.arr} fields={data.arrFields} />
      {groups.Health.length > 0 && <SettingsCard title="Health" settings={groups.Health} />}
      <SettingsCard title="Mount" settings={groups.Mount} lead={<MountStateBlock />} />
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

function SettingsCard({ title, settings, lead, children }: { title: string; settings: Setting[]; lead?: ReactNode; children?: ReactNode }) {
  const id = useId();
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {lead}
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
  const problems = fieldProblems(settings, edits);
  const [tried, setTried] = useState(false);
  // A refusal that names a field of this form (a rule across fields, or one the page does not know) is marked there too.
  const refused = save.isError ? fieldOfRefusal(settings, save.error.message) : null;

  /** A field's message: what is wrong as it is typed (an empty field only once Save was tried), else the server's refusal naming it. */
  function shownError(key: string): string | undefined {
    const problem = problems[key];
    if (problem && (tried || !problem.endsWith("cannot be empty."))) return problem;
    return refused === key ? save.error?.message : undefined;
  }

  function edit(key: string, value: string) {
    setSaved(false);
    save.reset();
    setEdits((e) => ({ ...e, [key]: value }));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    // Nothing is sent while a field is wrong: a save is whole or not at all.
    setTried(true);
    if (Object.keys(problems).length > 0 || changed === 0) return;
    setSaved(false);
    save.mutate(changes, {
      onSuccess: () => {
        setEdits({});
        setTried(false);
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
          <SettingField
            key={s.key}
            setting={s}
            value={shownValue(s, edits)}
            error={shownError(s.key)}
            busy={save.isPending}
            onChange={(v) => edit(s.key, v)}
            onReset={() => reset(s.key)}
          />
        ))}
      </div>
      {tried && Object.keys(problems).length > 0 && (
        <p role="alert" className="error">
          Nothing was saved: correct the {Object.keys(problems).length === 1 ? "field" : "fields"} marked above.
        </p>
      )}
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
  error,
  busy,
  onChange,
  onReset,
}: {
  setting: Setting;
  value: string;
  error: string | undefined;
  busy: boolean;
  onChange: (value: string) => void;
  onReset: () => void;
}) {
  const note = sourceNote(setting);
  const help = (
    <>
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
    </>
  );
  const common = { label: setting.label, help, error, className: "setting", disabled: setting.locked };

  if (setting.type === "Boolean")
    return <CheckField {...common} checked={value === "true"} onChange={(e) => onChange(e.target.checked ? "true" : "false")} />;
  if (setting.type === "Choice") {
    const choices = setting.choices ?? [];
    return (
      <Field {...common} control="select" value={value} onChange={(e) => onChange(e.target.value)}>
        {!choices.includes(value) && <option value={value}>{value || "–"}</option>}
        {choices.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </Field>
    );
  }
  if (setting.type === "Bytes")
    return (
      <Field
        {...common}
        labelAside={
          <span className="muted small" data-testid={`hint-${setting.key}`}>
            {bytesHint(value) ?? ""}
          </span>
        }
        type="text"
        inputMode="text"
        placeholder={placeholderOf(setting) || "e.g. 64 MiB"}
        title={placeholderOf(setting) || "A size in bytes or with a unit: 64 MiB, 64MB, 1.5 GiB (KB, MB, GB are binary here)"}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        autoComplete="off"
        spellCheck={false}
      />
    );
  if (setting.type === "Number")
    return (
      <Field
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
  return (
    <Field
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
        <Field
          label="WebDAV user"
          help={userLocked && <span className="locked-note">set by the environment or the command line</span>}
          value={shownUser}
          disabled={userLocked}
          autoComplete="off"
          onChange={(e) => {
            save.reset();
            setTypedUser(e.target.value);
          }}
        />
        <Field
          label="New WebDAV password"
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
        <Field label="New WebDAV password again" type="password" autoComplete="new-password" value={again} disabled={passwordLocked} onChange={(e) => setAgain(e.target.value)} />
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

/* The managed mount's state, beside its switch: it follows a save within a second or two. */

function MountStateBlock() {
  const mount = useMountState();
  if (mount.isError)
    return (
      <p role="alert" className="error">
        {mount.error.message}
      </p>
    );
  if (!mount.data) return <p className="muted">Loading the mount's state…</p>;
  return <MountStatus mount={mount.data} />;
}
