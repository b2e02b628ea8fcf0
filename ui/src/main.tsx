// The window's locale first: libraries read navigator.language when they load.
import "./platform/locale";
import "@fontsource-variable/inter";
import "@fontsource-variable/jetbrains-mono";
import "@xyflow/react/dist/base.css";
import "./styles/app.css";
import "./styles/run.css";
import "./styles/settings.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App";
import { createPlatform, detectPlatformKind } from "./platform";
import { startTheme } from "./store/theme";

// The theme first (the stored Appearance choice, read synchronously, or the system's), so the
// first frame is already in it.
startTheme();

// The mock adapter (dev server and tests only) is loaded on demand, hence the wait.
void createPlatform(detectPlatformKind(window)).then((platform) => {
  createRoot(document.getElementById("root") as HTMLElement).render(
    <StrictMode>
      <App platform={platform} />
    </StrictMode>,
  );
});
