// Settings: the appearance (System, Light or Dark: store/theme.ts), the model providers live
// runs can call, and About (version, commit, store, folders, how the window draws). Which have a key and where it comes from, whether their endpoint answers; store a
// key in the OS keyring or remove it. A stored key is never shown (the backend does not even send it).
import { CheckCircle2, KeyRound, Loader2, Monitor, Moon, MinusCircle, RefreshCw, Sun, Trash2, XCircle } from "lucide-react";
import { useCallback, useState, type ReactNode } from "react";
import type { Platform } from "../platform/types";
import { REAL_PROVIDERS, type Provider } from "../platform/types";
import { useProviderStatus } from "../hooks/queries";
import { useQuery } from "../hooks/useQuery";
import { isConfigured, keySource, providerLabel, usesKeyring, type ProviderStatus } from "../run/providers";
import { windowText } from "../commands/messages";
import { Segmented } from "../components/form";
import { useTheme, type ThemeChoice } from "../store/theme";
import { useUi } from "../store/ui";
import { Modal } from "./Modal";

function message(e: unknown): string {
  if (e && typeof e === "object" && "message" in e) return String((e as { message: unknown }).message);
  return String(e);
}

export function SettingsDialog({ platform }: { platform: Platform }) {
  const close = useCallback(() => useUi.getState().openDialog(null), []);
  // Asked again each time Settings opens (the Run panel's answer is shared, and updated too).
  const providers = useProviderStatus();
  const statuses = providers.data ?? null;
  const checking = providers.loading;
  const error = providers.error;
  const refresh = providers.refresh;

  const rows = statuses ? [...statuses].sort((a, b) => order(a.provider) - order(b.provider)) : null;
  const configured = rows?.filter((s) => isConfigured(s)).length ?? 0;

  return (
    <Modal
      title="Settings"
      subtitle="Appearance, the model providers for live runs, and what this Baton is"
      onClose={close}
      width={940}
      testId="settings-dialog"
      footer={
        <>
          <span className="settings-foot muted small">
            <KeyRound size={13} />
            {platform.kind === "http"
              ? "Keys are stored in the OS keyring of the machine running baton serve, and only ever sent to their provider."
              : "Keys are stored in your OS keyring, and only ever sent to their provider."}
          </span>
          <div className="spacer" />
          <button className="btn btn-primary" onClick={close}>
            Done
          </button>
        </>
      }
    >
      <AppearanceSetting />
      <div className="settings-head">
        <div>
          <h3>Model providers</h3>
          <p className="muted small">
            A key in the environment (e.g. <code>OPENAI_API_KEY</code>) wins over one stored here. Runs use the mock scripts unless “Use real providers” is on in
            the Run panel.
          </p>
        </div>
        <div className="spacer" />
        {rows && (
          <span className="muted small" data-testid="providers-summary">
            {configured} of {rows.length} configured
          </span>
        )}
        <button className="btn btn-secondary btn-sm" data-testid="providers-refresh" onClick={() => void refresh()} disabled={checking}>
          {checking ? <Loader2 size={13} className="spin" /> : <RefreshCw size={13} />} {checking ? "Checking…" : "Check again"}
        </button>
      </div>
      {error && (
        <div className="settings-error" role="alert" data-testid="providers-error">
          Could not check the providers: {error.message}
        </div>
      )}
      {!rows && !error && (
        <div className="pane-empty small">
          <Loader2 size={14} className="spin" /> Checking each provider's endpoint…
        </div>
      )}
      {rows && (
        <div className="prov-table" role="table" aria-label="Model providers" data-testid="provider-table" aria-busy={checking}>
          <div className="prov-head" role="row">
            <span role="columnheader">Provider</span>
            <span role="columnheader">Key</span>
            <span role="columnheader">Endpoint</span>
            <span role="columnheader">Store a key</span>
          </div>
          {rows.map((s) => (
            <ProviderRow key={s.provider} status={s} platform={platform} onChanged={refresh} />
          ))}
        </div>
      )}
      <AboutSection platform={platform} />
    </Modal>
  );
}

const APPEARANCE: readonly { value: ThemeChoice; label: ReactNode; title: string }[] = [
  { value: "system", label: <><Monitor size={13} /> System</>, title: "Follow the system's light or dark setting" },
  { value: "light", label: <><Sun size={13} /> Light</>, title: "Always light" },
  { value: "dark", label: <><Moon size={13} /> Dark</>, title: "Always dark" },
];

/** Appearance: System (follows prefers-color-scheme), Light or Dark; applied at once and remembered. */
function AppearanceSetting() {
  const choice = useTheme((s) => s.choice);
  const theme = useTheme((s) => s.theme);
  return (
    <div className="settings-head settings-appearance" data-testid="appearance-setting" data-theme-choice={choice}>
      <div>
        <h3>Appearance</h3>
        <p className="muted small">{choice === "system" ? `Follows the system's setting (now ${theme}).` : `Always ${theme}, whatever the system's setting.`}</p>
      </div>
      <div className="spacer" />
      <Segmented<ThemeChoice> value={choice} options={APPEARANCE} onChange={(c) => useTheme.getState().setChoice(c)} testId="appearance" label="Appearance" />
    </div>
  );
}

/** About: what a bug report needs to say (version and commit, the store, the folders, how the window draws). */
function AboutSection({ platform }: { platform: Platform }) {
  const about = useQuery(["about"], () => platform.about({}));
  const a = about.data;
  const rows: [string, string, string][] = a
    ? [
        ["Version", `${a.version} (commit ${a.commit})`, "about-version"],
        ["Store", a.store, "about-store"],
        ...(a.data_dir ? [["Data folder", a.data_dir, "about-data"] as [string, string, string]] : []),
        ["Crash reports", a.log_dir, "about-logs"],
        ["System", a.os, "about-os"],
        ["Drawing", a.compositing ? `WebKit compositing ${a.compositing}` : "your browser (baton serve)", "about-compositing"],
      ]
    : [];
  return (
    <section className="settings-about" data-testid="about" aria-label="About Baton">
      <h3>About</h3>
      {about.error && (
        <div className="settings-error" role="alert">
          Could not read what this Baton is: {about.error.message}
        </div>
      )}
      {a && (
        <dl className="about-list">
          {rows.map(([k, v, id]) => (
            <div key={id} className="about-row">
              <dt>{k}</dt>
              <dd className="mono" data-testid={id}>
                {v}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}

const order = (p: string) => {
  const i = (REAL_PROVIDERS as readonly string[]).indexOf(p);
  return i < 0 ? REAL_PROVIDERS.length : i;
};

function ProviderRow({ status: s, platform, onChanged }: { status: ProviderStatus; platform: Platform; onChanged: () => Promise<void> }) {
  const [draft, setDraft] = useState("");
  const [busy, setBusy] = useState<"save" | "delete" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const configured = isConfigured(s);
  const label = providerLabel(s.provider);
  const notify = useUi((u) => u.notify);
  const envKey = s.key?.startsWith("$") ? s.key : null;

  async function save() {
    const key = draft.trim();
    if (!key) return;
    setBusy("save");
    setError(null);
    try {
      await platform.set_provider_key({ provider: s.provider as Provider, key });
      setDraft("");
      notify("success", `Stored the ${label} key`, "In the OS keyring. Checking the endpoint…");
      await onChanged();
    } catch (e) {
      setError(message(e));
    } finally {
      setBusy(null);
    }
  }

  async function remove() {
    setBusy("delete");
    setError(null);
    try {
      await platform.delete_provider_key({ provider: s.provider as Provider });
      notify("success", `Removed the ${label} key from the OS keyring`);
      await onChanged();
    } catch (e) {
      setError(message(e));
    } finally {
      setBusy(null);
    }
  }

  const inputId = `provider-key-${s.provider}`;
  return (
    <div className="prov-row" role="row" data-testid="provider-row" data-provider={s.provider} data-configured={String(configured)} data-reachable={String(s.reachable)}>
      <div className="prov-name" role="cell">
        <span className={`provider-dot provider-${s.provider}`} />
        <div>
          <div className="prov-label">{label}</div>
          <div className="prov-id mono">{s.provider}</div>
        </div>
      </div>
      <div className="prov-key" role="cell" data-testid="provider-key-source">
        {configured ? (
          <span className="prov-badge is-ok">
            <CheckCircle2 size={12} /> Configured
          </span>
        ) : (
          <span className="prov-badge is-off">Not configured</span>
        )}
        {s.key ? (
          <div className="prov-sub">via {s.key.startsWith("$") ? <code>{s.key}</code> : s.key}</div>
        ) : configured ? (
          <div className="prov-sub">{keySource(s)}</div>
        ) : null}
      </div>
      <div className="prov-endpoint" role="cell">
        <div className="prov-status" data-testid="provider-reachable" data-reachable={String(s.reachable)}>
          {s.reachable ? (
            <CheckCircle2 size={13} className="text-ok" />
          ) : configured ? (
            <XCircle size={13} className="text-error" />
          ) : (
            <MinusCircle size={13} className="muted" />
          )}
          <span>{s.reachable ? "Reachable" : configured ? "Not reachable" : "Not checked"}</span>
        </div>
        {s.base_url && (
          <div className="prov-url mono" title={s.base_url}>
            {s.base_url}
          </div>
        )}
        <div className="prov-detail" title={windowText(undefined, s.detail)} data-testid="provider-detail">
          {windowText(undefined, s.detail)}
        </div>
      </div>
      <div className="prov-store" role="cell">
        <form
          className="prov-form"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <label className="sr-only" htmlFor={inputId}>
            {label} API key
          </label>
          <input
            id={inputId}
            className="input input-sm mono"
            type="password"
            autoComplete="off"
            spellCheck={false}
            placeholder={usesKeyring(s) ? "Replace the stored key…" : "Paste an API key…"}
            value={draft}
            disabled={busy !== null}
            data-testid="provider-key-input"
            onChange={(e) => setDraft(e.target.value)}
          />
          <button type="submit" className="btn btn-secondary btn-sm" data-testid="provider-key-save" disabled={busy !== null || draft.trim() === ""}>
            {busy === "save" ? <Loader2 size={13} className="spin" /> : null} Save
          </button>
          {usesKeyring(s) && (
            <button
              type="button"
              className="icon-btn sm danger"
              data-testid="provider-key-delete"
              aria-label={`Remove the ${label} key from the OS keyring`}
              title="Remove the stored key"
              disabled={busy !== null}
              onClick={() => void remove()}
            >
              {busy === "delete" ? <Loader2 size={13} className="spin" /> : <Trash2 size={13} />}
            </button>
          )}
        </form>
        {error ? (
          <div className="prov-error" role="alert" data-testid="provider-error">
            {error}
          </div>
        ) : envKey ? (
          <div className="prov-hint">{envKey} is used while it is set.</div>
        ) : s.provider === "openai-responses" ? (
          <div className="prov-hint">Shares the OpenAI key.</div>
        ) : null}
      </div>
    </div>
  );
}
