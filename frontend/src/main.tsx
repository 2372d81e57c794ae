import { StrictMode, lazy } from "react";
import { createRoot } from "react-dom/client";
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { ApiError } from "./api/client";
import { onApiError } from "./api/session";
import { RouterProvider, createBrowserRouter } from "react-router";
import { Layout } from "./Layout";
import { StatusPage } from "./pages/StatusPage";
import { DashboardPage } from "./pages/DashboardPage";
import { LogsPage } from "./pages/LogsPage";
import { NotFoundPage } from "./pages/NotFoundPage";
import { AccountPage } from "./pages/AccountPage";
import "./styles.css";

// Loaded on first visit: the dashboard, which most visits open, does not wait for them.
const QueuePage = lazy(() => import("./pages/QueuePage").then((m) => ({ default: m.QueuePage })));
const HistoryPage = lazy(() => import("./pages/HistoryPage").then((m) => ({ default: m.HistoryPage })));
const FilesPage = lazy(() => import("./pages/FilesPage").then((m) => ({ default: m.FilesPage })));
const HealthPage = lazy(() => import("./pages/HealthPage").then((m) => ({ default: m.HealthPage })));
const TrafficPage = lazy(() => import("./pages/TrafficPage").then((m) => ({ default: m.TrafficPage })));
const SettingsPage = lazy(() => import("./pages/SettingsPage").then((m) => ({ default: m.SettingsPage })));
const IntegrationsPage = lazy(() => import("./pages/IntegrationsPage").then((m) => ({ default: m.IntegrationsPage })));

// A 401 on any call means the session ended under the page: it rechecks and shows the login.
const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (error) => onApiError(queryClient, error) }),
  mutationCache: new MutationCache({ onError: (error) => onApiError(queryClient, error) }),
  defaultOptions: { queries: { retry: (failures, error) => !(error instanceof ApiError && error.status === 401) && failures < 1, refetchOnWindowFocus: true } },
});

const router = createBrowserRouter(
  [
    {
      element: <Layout />,
      children: [
        { index: true, element: <DashboardPage /> },
        { path: "queue", element: <QueuePage /> },
        { path: "history", element: <HistoryPage /> },
        { path: "files", element: <FilesPage /> },
        { path: "health", element: <HealthPage /> },
        { path: "traffic", element: <TrafficPage /> },
        { path: "status", element: <StatusPage /> },
        { path: "logs", element: <LogsPage /> },
        { path: "settings", element: <SettingsPage /> },
        { path: "settings/integrations", element: <IntegrationsPage /> },
        { path: "account", element: <AccountPage /> },
        { path: "*", element: <NotFoundPage /> },
      ],
    },
  ],
  { basename: "/ui" },
);

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
