import { apiPaths } from "../../api/paths";
import type { Provider, ProviderTest, UiField } from "../../api/types";
import { providerFacts, stepLine, testFigures } from "../../lib/settings";
import { roleLabel } from "../../lib/providers";
import { TestedEntityList, type EntityLayout } from "./TestedEntityList";

const layout: EntityLayout = {
  fields: [
    "name",
    "host",
    "port",
    "user",
    "password",
    "maxConnections",
    "role",
    "priority",
    "pipelineDepth",
    "maxBytesPerSecond",
    "dailyQuotaBytes",
    "monthlyQuotaBytes",
    "quotaResetDay",
    "windowQuotaBytes",
    "quotaWindowHours",
  ],
  toggles: ["useTls", "allowUntrustedCertificate", "enabled"],
  presentation: {
    host: { placeholder: "news.example.com" },
    maxBytesPerSecond: { placeholder: "none, e.g. 20 MiB" },
    dailyQuotaBytes: { placeholder: "none, e.g. 50 GiB" },
    monthlyQuotaBytes: { placeholder: "none, e.g. 1 TiB" },
    windowQuotaBytes: { placeholder: "none" },
    // Without TLS there is no certificate to trust or not.
    allowUntrustedCertificate: { disabled: (values) => values.useTls !== true },
  },
};

/** The Usenet servers the library streams from: Test opens a session of its own and shows each step. */
export function ProvidersCard({ providers, fields }: { providers: Provider[]; fields: readonly UiField[] }) {
  return (
    <TestedEntityList
      heading="Providers"
      addLabel="Add provider"
      listLabel="Providers"
      empty="No provider yet: add the Usenet server the library streams from."
      entities={providers}
      fields={fields}
      layout={layout}
      paths={apiPaths.providers}
      item={{
        pills: (p) => <span className="pill">{roleLabel(p.role)}</span>,
        facts: providerFacts,
        deleteQuestion: (p) => <>Delete the provider {p.name}? Its connections leave the budget at once.</>,
        deleteLabel: () => "Delete provider",
        testIds: { state: "provider-state", source: "provider-source" },
      }}
      renderTest={(result: ProviderTest, announce) => <TestResult result={result} announce={announce} />}
    />
  );
}

/** A provider test's steps (✓/✗, time, detail) and what it measured; `announce` makes a failure an alert. */
function TestResult({ result, announce }: { result: ProviderTest; announce: boolean }) {
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
