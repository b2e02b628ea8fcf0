import { AlertOctagon, AlertTriangle, Info } from "lucide-react";
import type { Severity } from "../model/types";

export function SeverityIcon({ severity, size = 14 }: { severity: Severity; size?: number }) {
  const props = { size, strokeWidth: 2.2, className: `sev-icon sev-${severity}`, "aria-label": severity };
  switch (severity) {
    case "error":
      return <AlertOctagon {...props} />;
    case "warning":
      return <AlertTriangle {...props} />;
    case "info":
      return <Info {...props} />;
  }
}
