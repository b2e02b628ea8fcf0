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

const platform = createPlatform(detectPlatformKind(window));

createRoot(document.getElementById("root") as HTMLElement).render(
  <StrictMode>
    <App platform={platform} />
  </StrictMode>,
);
