import declared from "../api/fields.json";
import type { ArrInstance, Provider, UiField } from "../api/types";

// What the unit tests of the provider and Sonarr/Radarr editors run on: the server's own field
// declarations, as its settings view sends them (kept equal by the server's UiOpenApiTests), and
// one saved entity of each kind as the view lists it.

export const providerFields = declared.providerFields as UiField[];
export const arrFields = declared.arrFields as UiField[];

export const provider: Provider = {
  name: "news",
  host: "news.example.com",
  port: 563,
  useTls: true,
  allowUntrustedCertificate: false,
  user: "me",
  hasPassword: true,
  maxConnections: 20,
  role: "BackupOnly",
  priority: 3,
  pipelineDepth: 8,
  maxBytesPerSecond: null,
  dailyQuotaBytes: null,
  monthlyQuotaBytes: 1099511627776,
  quotaResetDay: 1,
  windowQuotaBytes: null,
  quotaWindowHours: 24,
  enabled: true,
  editable: true,
  source: "web UI",
};

export const instance: ArrInstance = {
  name: "sonarr",
  kind: "Sonarr",
  url: "http://sonarr:8989",
  hasApiKey: true,
  enabled: true,
  categories: ["tv", "anime"],
  timeoutSeconds: 15,
  editable: true,
  source: "web UI",
};
