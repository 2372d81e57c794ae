import { useId, useRef, useState, type FormEvent, type InputHTMLAttributes, type ReactNode } from "react";
import type { EntityPaths } from "../../api/paths";
import { useDeleteEntity, useSaveEntity, useTestEntity } from "../../api/settings";
import type { UiField } from "../../api/types";
import { CheckField, Field } from "../../components/Field";
import {
  asSaveRefusal,
  callProblem,
  entityForm,
  entityRequest,
  formProblem,
  newForm,
  storedSecrets,
  toggleRequest,
  type EntityForm,
  type EntityRecord,
  type FieldCheck,
  type FieldProblem,
  type FieldValue,
  type FormValues,
} from "../../lib/entities";
import { ListedItem } from "./ListedItem";

/** What the descriptors do not say about showing a field; a function reads the form as it is now. */
export interface FieldPresentation {
  placeholder?: string | ((values: FormValues) => string);
  /** Shown before the descriptor's own help. */
  note?: string | ((values: FormValues) => string);
  disabled?: (values: FormValues) => boolean;
  input?: Pick<InputHTMLAttributes<HTMLInputElement>, "type" | "inputMode" | "spellCheck">;
}

/**
 * Where an entity's fields go: `fields` in the grid in this order, then `toggles` (checkboxes) in a
 * row. A descriptor named in neither is still shown, after the others of its sort, so a field the
 * server adds appears without a change here.
 */
export interface EntityLayout {
  fields: readonly string[];
  toggles: readonly string[];
  presentation?: Readonly<Record<string, FieldPresentation>>;
  /** The server's rules the descriptors cannot say, checked after each field's own. */
  rules?: Readonly<Record<string, FieldCheck>>;
}

export interface ListedEntity {
  name: string;
  source: string;
  enabled: boolean;
  editable: boolean;
}

/** What an entity's item in the list shows beside what every item has. */
export interface EntityItemParts<E> {
  pills?: (entity: E) => ReactNode;
  facts: (entity: E) => ReactNode;
  deleteQuestion: (entity: E) => ReactNode;
  deleteLabel: (entity: E) => ReactNode;
  testIds: { state: string; source: string; facts?: string };
}

interface EntityKind<T> {
  fields: readonly UiField[];
  layout: EntityLayout;
  paths: EntityPaths;
  /** A test's outcome; `announce` makes it a status or alert as it arrives (not inside a refusal, which is announced already). */
  renderTest: (result: T, announce: boolean) => ReactNode;
}

/**
 * A card listing entities that are tested before they are trusted (providers, Sonarr/Radarr): each
 * switched on and off, edited and deleted in place, and a form to add one. Everything here is the
 * same for every kind; the kind supplies its field descriptors, its layout, its list item's facts,
 * its API paths and how its test result reads.
 */
export function TestedEntityList<E extends ListedEntity & EntityRecord, T extends { ok: boolean }>({
  heading,
  intro,
  addLabel,
  listLabel,
  empty,
  entities,
  item,
  ...kind
}: EntityKind<T> & {
  heading: string;
  intro?: ReactNode;
  /** The add button's text, and the add form's title. */
  addLabel: string;
  listLabel: string;
  empty: ReactNode;
  entities: readonly E[];
  item: EntityItemParts<E>;
}) {
  const id = useId();
  const [adding, setAdding] = useState(false);
  return (
    <section className="card" aria-labelledby={id}>
      <div className="card-head">
        <h2 id={id}>{heading}</h2>
        {!adding && (
          <button type="button" className="secondary" onClick={() => setAdding(true)}>
            {addLabel}
          </button>
        )}
      </div>
      {intro}
      {entities.length === 0 && <p className="muted">{empty}</p>}
      {entities.length > 0 && (
        <ul className="provider-list" aria-label={listLabel}>
          {entities.map((entity) => (
            <EntityItem key={entity.name} entity={entity} kind={kind} parts={item} />
          ))}
        </ul>
      )}
      {adding && <EntityEditor kind={kind} title={addLabel} entity={null} onDone={() => setAdding(false)} />}
    </section>
  );
}

function EntityItem<E extends ListedEntity & EntityRecord, T extends { ok: boolean }>({
  entity,
  kind,
  parts,
}: {
  entity: E;
  kind: EntityKind<T>;
  parts: EntityItemParts<E>;
}) {
  const toggle = useSaveEntity(kind.paths);
  const remove = useDeleteEntity(kind.paths);
  return (
    <ListedItem
      item={entity}
      pills={parts.pills?.(entity)}
      facts={parts.facts(entity)}
      testIds={parts.testIds}
      onToggle={(enabled, settled) =>
        toggle.mutate({ originalName: entity.name, request: toggleRequest(kind.fields, entity, enabled) }, { onSettled: settled })
      }
      toggling={toggle.isPending}
      onDelete={(settled) => remove.mutate(entity.name, { onSettled: settled })}
      deleting={remove.isPending}
      error={toggle.error ?? remove.error}
      deleteQuestion={parts.deleteQuestion(entity)}
      deleteLabel={parts.deleteLabel(entity)}
      editor={(close) => <EntityEditor kind={kind} title={`Edit ${entity.name}`} entity={entity} onDone={close} />}
    />
  );
}

/** The descriptors in the layout's order, split into the grid and the checkbox row. */
function arrange(fields: readonly UiField[], layout: EntityLayout): { grid: UiField[]; toggles: UiField[] } {
  const byName = new Map(fields.map((f) => [f.name, f]));
  const placed = new Set([...layout.fields, ...layout.toggles]);
  const pick = (names: readonly string[]) => names.flatMap((n) => byName.get(n) ?? []);
  const rest = fields.filter((f) => !placed.has(f.name));
  return {
    grid: [...pick(layout.fields), ...rest.filter((f) => f.kind !== "Boolean")],
    toggles: [...pick(layout.toggles), ...rest.filter((f) => f.kind === "Boolean")],
  };
}

function resolve(value: string | ((values: FormValues) => string) | undefined, values: FormValues): string | undefined {
  return typeof value === "function" ? value(values) : value;
}

/**
 * The form to add or change an entity: checked before anything is sent; Test tries it without
 * saving; a save whose test fails is refused (422) with that test, and "Save anyway" keeps it.
 */
function EntityEditor<E extends EntityRecord, T extends { ok: boolean }>({
  kind,
  title,
  entity,
  onDone,
}: {
  kind: EntityKind<T>;
  title: string;
  entity: E | null;
  onDone: () => void;
}) {
  const { fields, layout } = kind;
  const id = useId();
  const formElement = useRef<HTMLFormElement>(null);
  const [form, setForm] = useState<EntityForm>(() => (entity ? entityForm(fields, entity) : newForm(fields)));
  const [problem, setProblem] = useState<FieldProblem | null>(null);
  const test = useTestEntity<T>(kind.paths);
  const save = useSaveEntity(kind.paths);
  const stored = storedSecrets(fields, entity);
  const original = typeof entity?.name === "string" ? entity.name : null;
  const refusal = asSaveRefusal<T>(save.error);
  const { grid, toggles } = arrange(fields, layout);

  function set(name: string, value: FieldValue) {
    setForm((f) => ({ ...f, values: { ...f.values, [name]: value } }));
    // The field the form refused is being corrected: its mark goes until the next Test or Save.
    setProblem((p) => (p?.field === name ? null : p));
  }

  function valid(): boolean {
    const local = formProblem(fields, form, stored, layout.rules);
    setProblem(local);
    if (local?.field) {
      const control = formElement.current?.elements.namedItem(local.field);
      if (control instanceof HTMLElement) control.focus();
    }
    return local === null;
  }

  function runTest() {
    if (!valid()) return;
    save.reset();
    test.mutate(entityRequest(fields, form, { originalName: original }));
  }

  function send(force: boolean) {
    if (!valid()) return;
    test.reset();
    save.mutate({ originalName: original, request: entityRequest(fields, form, { force }) }, { onSuccess: onDone });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    send(false);
  }

  const failure = problem ?? (save.error && !refusal ? callProblem(save.error) : null) ?? (test.error ? callProblem(test.error) : null);
  // A problem with a field is said under that field; any other in the form's footer.
  const shown = new Set([...grid, ...toggles].map((f) => f.name));
  const fieldError = failure?.field && shown.has(failure.field) ? failure : null;

  const control = (field: UiField) => (
    <EntityField
      key={field.name}
      field={field}
      presentation={layout.presentation?.[field.name] ?? {}}
      form={form}
      stored={stored.has(field.name)}
      error={fieldError?.field === field.name ? fieldError.message : null}
      onChange={(value) => set(field.name, value)}
    />
  );

  const removable = fields.filter((f) => f.kind === "Secret" && !f.required && stored.has(f.name));
  return (
    <form ref={formElement} className="provider-editor" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{title}</h3>
      <div className="options">{grid.map(control)}</div>
      <div className="checks">
        {toggles.map(control)}
        {removable.map((f) => (
          <CheckField
            key={`remove-${f.name}`}
            label={`Remove the stored ${f.label.toLowerCase()}`}
            checked={form.remove[f.name] === true}
            onChange={(e) => setForm((current) => ({ ...current, remove: { ...current.remove, [f.name]: e.target.checked } }))}
          />
        ))}
      </div>

      {failure && !fieldError && (
        <p role="alert" className="error">
          {failure.message}
        </p>
      )}
      {refusal && (
        <div className="refusal">
          <p role="alert" className="error">
            {refusal.error}
          </p>
          {kind.renderTest(refusal.test, false)}
          <button type="button" className="danger" disabled={save.isPending} onClick={() => send(true)}>
            Save anyway
          </button>
        </div>
      )}
      {test.data && kind.renderTest(test.data, true)}

      <div className="job-actions">
        <button type="button" className="secondary" disabled={test.isPending || save.isPending} onClick={runTest}>
          {test.isPending ? "Testing…" : "Test"}
        </button>
        <button type="submit" disabled={save.isPending || test.isPending}>
          {save.isPending ? "Saving…" : "Save"}
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** One field's control, from its kind: a checkbox, a select of its choices, or an input (a secret's a password field). */
function EntityField({
  field,
  presentation,
  form,
  stored,
  error,
  onChange,
}: {
  field: UiField;
  presentation: FieldPresentation;
  form: EntityForm;
  stored: boolean;
  error: string | null;
  onChange: (value: FieldValue) => void;
}) {
  const { values } = form;
  const value = values[field.name];
  const help = [resolve(presentation.note, values), field.help].filter(Boolean).join(" ") || undefined;
  const common = {
    label: field.label,
    help,
    error,
    name: field.name,
    disabled: presentation.disabled?.(values) ?? false,
  };

  if (field.kind === "Boolean") return <CheckField {...common} checked={value === true} onChange={(e) => onChange(e.target.checked)} />;

  const text = typeof value === "string" ? value : "";
  if (field.kind === "Choice") {
    const choices = field.choices ?? [];
    return (
      <Field {...common} control="select" value={text} onChange={(e) => onChange(e.target.value)}>
        {!field.required && <option value="">–</option>}
        {/* A value the choices no longer hold stays visible, for the check to name, rather than showing as another. */}
        {text !== "" && !choices.includes(text) && <option value={text}>{text}</option>}
        {choices.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </Field>
    );
  }

  const placeholder = resolve(presentation.placeholder, values) ?? field.placeholder ?? undefined;
  const byKind: InputHTMLAttributes<HTMLInputElement> =
    field.kind === "Secret"
      ? {
          type: "password",
          autoComplete: "new-password",
          placeholder: stored ? "stored — leave empty to keep" : placeholder,
          disabled: common.disabled || form.remove[field.name] === true,
        }
      : field.kind === "Integer"
        ? { type: "number", inputMode: "numeric", step: 1, min: field.min ?? undefined, max: field.max ?? undefined, placeholder }
        : field.kind === "Number"
          ? { type: "number", inputMode: "decimal", step: "any", min: field.min ?? undefined, max: field.max ?? undefined, placeholder }
          : { type: "text", autoComplete: "off", placeholder };
  return <Field {...common} {...byKind} {...presentation.input} value={text} onChange={(e) => onChange(e.target.value)} />;
}
