import { Link } from "react-router";
import { apiPaths } from "../../api/paths";
import type { ArrInstance, ArrTest, UiField } from "../../api/types";
import { arrChecks, arrFacts, arrTestLine, formKind, urlPlaceholder } from "../../lib/arr";
import { TestedEntityList, type EntityLayout } from "./TestedEntityList";

const layout: EntityLayout = {
  fields: ["name", "kind", "url", "apiKey", "categories", "timeoutSeconds"],
  toggles: ["enabled"],
  presentation: {
    name: { placeholder: "sonarr" },
    url: {
      placeholder: (values) => urlPlaceholder(formKind(values)),
      note: "With its URL base, if it has one.",
      input: { type: "url", inputMode: "url", spellCheck: false },
    },
    apiKey: { note: (values) => `In ${formKind(values)}: Settings → General.` },
    categories: { placeholder: "any category", note: "The SABnzbd categories it sends, comma-separated." },
  },
  rules: arrChecks,
};

/** The Sonarr and Radarr instances Broken files are repaired through: Test calls their system/status. */
export function ArrCard({ instances, fields }: { instances: ArrInstance[]; fields: readonly UiField[] }) {
  return (
    <TestedEntityList
      heading="Sonarr and Radarr"
      intro={
        <p className="muted small">
          A Broken file is repaired through the instance that grabbed it: the grab is marked failed, its file record deleted and a replacement searched
          for. Without one, a Broken file waits for you on the <Link to="/health">Health page</Link>.
        </p>
      }
      addLabel="Add Sonarr/Radarr"
      listLabel="Sonarr and Radarr instances"
      empty="No Sonarr or Radarr yet."
      entities={instances}
      fields={fields}
      layout={layout}
      paths={apiPaths.arr}
      item={{
        pills: (a) => (
          <span className="pill" data-testid="arr-kind">
            {a.kind}
          </span>
        ),
        facts: arrFacts,
        deleteQuestion: (a) => <>Delete {a.name}? Broken files it grabbed can no longer be repaired through it.</>,
        deleteLabel: (a) => <>Delete {a.kind}</>,
        testIds: { state: "arr-state", source: "arr-source", facts: "arr-facts" },
      }}
      renderTest={(result: ArrTest, announce) => <ArrTestResult result={result} announce={announce} />}
    />
  );
}

/** An instance test's outcome; `announce` makes it a status or alert as it arrives. */
function ArrTestResult({ result, announce }: { result: ArrTest; announce: boolean }) {
  const role = announce ? (result.ok ? "status" : "alert") : undefined;
  return (
    <div className={`test-result ${result.ok ? "ok" : "failed"}`} data-testid="arr-test">
      <p className={result.ok ? "passed" : "error"} role={role}>
        {arrTestLine(result)}
      </p>
    </div>
  );
}
