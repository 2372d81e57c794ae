import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from "react";

interface Described {
  label: string;
  /** Under the control, and read with it by screen readers (aria-describedby). */
  help?: ReactNode;
  /** Marks the control invalid and says why, under it; announced as it appears. */
  error?: ReactNode;
  /** Added to the wrapper's "field" class. */
  className?: string;
}

type InputFieldProps = Described & { control?: "input"; labelAside?: ReactNode } & InputHTMLAttributes<HTMLInputElement>;
type SelectFieldProps = Described & { control: "select"; labelAside?: ReactNode } & SelectHTMLAttributes<HTMLSelectElement>;
type TextareaFieldProps = Described & { control: "textarea"; labelAside?: ReactNode } & TextareaHTMLAttributes<HTMLTextAreaElement>;

/** The ids and attributes that tie a control to its help and error, whatever the control. */
function useDescribed(ownId: string | undefined, help: ReactNode, error: ReactNode, describedBy: string | undefined) {
  const generated = useId();
  const id = ownId ?? generated;
  const helpId = help != null && help !== false ? `${id}-help` : undefined;
  const errorId = error != null && error !== false ? `${id}-error` : undefined;
  const ids = [describedBy, helpId, errorId].filter(Boolean).join(" ");
  return {
    id,
    helpId,
    errorId,
    control: { id, "aria-describedby": ids || undefined, "aria-invalid": errorId ? true : undefined },
  };
}

function Notes({ help, helpId, error, errorId }: { help: ReactNode; helpId?: string; error: ReactNode; errorId?: string }) {
  return (
    <>
      {helpId && (
        <p id={helpId} className="muted small help">
          {help}
        </p>
      )}
      {errorId && (
        <p id={errorId} className="error small field-error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

/**
 * A labelled input, select or textarea; the label is tied to it so screen readers and tests find it
 * by name, and its help and error are read with it. `labelAside` sits at the label's other end.
 */
export function Field(props: InputFieldProps | SelectFieldProps | TextareaFieldProps) {
  const { label, help, error, className, labelAside, ...rest } = props;
  const described = useDescribed(rest.id, help, error, rest["aria-describedby"]);

  let control: ReactNode;
  if (rest.control === "select") {
    const { control: _select, ...select } = rest;
    control = <select {...select} {...described.control} />;
  } else if (rest.control === "textarea") {
    const { control: _textarea, ...textarea } = rest;
    control = <textarea {...textarea} {...described.control} />;
  } else {
    const { control: _input, ...input } = rest;
    control = <input {...input} {...described.control} />;
  }

  const labelElement = <label htmlFor={described.id}>{label}</label>;
  return (
    <div className={className ? `field ${className}` : "field"}>
      {labelAside == null || labelAside === false ? (
        labelElement
      ) : (
        <div className="field-head">
          {labelElement}
          {labelAside}
        </div>
      )}
      {control}
      <Notes help={help} helpId={described.helpId} error={error} errorId={described.errorId} />
    </div>
  );
}

/** A checkbox with its label after it, and the same help and error as a Field. */
export function CheckField({ label, help, error, className, ...input }: Described & Omit<InputHTMLAttributes<HTMLInputElement>, "type">) {
  const described = useDescribed(input.id, help, error, input["aria-describedby"]);
  return (
    <div className={className ? `field check-field ${className}` : "field check-field"}>
      <label className="check">
        <input type="checkbox" {...input} {...described.control} />
        {label}
      </label>
      <Notes help={help} helpId={described.helpId} error={error} errorId={described.errorId} />
    </div>
  );
}
