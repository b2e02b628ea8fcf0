# Baton: `make run` opens the app on the embedded example; `make test` runs every test.
# Both install what a fresh Debian 12 machine lacks first (as root).

CARGO ?= cargo
EXAMPLE ?= examples/ticket-reopen.yaml
APP := target/debug/baton-app

.PHONY: run app app-release dist dist-test test deps check ui ui-test e2e app-test bench bench-ui fuzz

deps:
	@scripts/deps.sh
	@scripts/pyenv.sh >/dev/null

# The UI's dependencies (from the lock file, once per lock change) and its production build.
ui/node_modules/.baton-stamp: ui/package-lock.json
	cd ui && npm ci --no-audit --no-fund --loglevel=error && touch node_modules/.baton-stamp

app-e2e/node_modules/.baton-stamp: app-e2e/package-lock.json
	cd app-e2e && npm ci --no-audit --no-fund --loglevel=error && touch node_modules/.baton-stamp

ui: deps ui/node_modules/.baton-stamp
	cd ui && npm run build && npm run check-bundle

# The desktop app (debug build); prints the binary's path.
app: ui
	$(CARGO) build -p baton-app
	@echo "$(abspath $(APP))"

# The desktop app's release build (the app-release profile in Cargo.toml); prints its path and size.
APP_RELEASE := target/app-release/baton-app
app-release: ui
	$(CARGO) build --profile app-release -p baton-app --features custom-protocol
	@ls -l $(APP_RELEASE) | awk '{printf "%s: %.1f MB\n", $$9, $$5 / 1e6}'

# Installers with Tauri's bundler (app-e2e's pinned @tauri-apps/cli): the Linux .deb holds the app
# (release profile app-release), its desktop entry and icon, and the `baton` CLI on PATH. The
# AppImage needs tools Tauri downloads from GitHub, which this machine cannot reach: the release
# workflow (.github/workflows/release.yml) builds it. Prints each package and its size.
TAURI := app-e2e/node_modules/.bin/tauri
dist: ui app-e2e/node_modules/.baton-stamp
	$(CARGO) build --release --bin baton
	$(TAURI) build --ci --bundles deb -- --profile app-release
	@ls -l target/app-release/bundle/deb/*.deb | awk '{printf "%s: %.1f MB\n", $$9, $$5 / 1e6}'

# The package test: the debug app and CLI bundled twice (as 0.0.1, then as this version), each
# installed with apt-get, the app started from its desktop entry, then removed (needs root).
DEB_DEBUG := --debug --ci --bundles deb --no-binary-patching --config '{"bundle":{"linux":{"deb":{"files":{"/usr/bin/baton":"../target/debug/baton"}}}}}'
dist-test: app app-e2e/node_modules/.baton-stamp
	$(CARGO) build --bin baton
	$(TAURI) bundle $(DEB_DEBUG) --config '{"version":"0.0.1"}'
	$(TAURI) bundle $(DEB_DEBUG)
	cd app-e2e && node --test install.spec.mjs

run: app
	@if [ -z "$$DISPLAY" ]; then \
	  echo "no DISPLAY: starting Xvfb on :99 (view it with a VNC viewer, or set DISPLAY)"; \
	  (Xvfb :99 -screen 0 1440x900x24 -nolisten tcp >/dev/null 2>&1 &); sleep 1; \
	  DISPLAY=:99 ./$(APP) $(EXAMPLE); \
	else ./$(APP) $(EXAMPLE); fi

check:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --all-targets -- -D warnings

ui-test: ui
	cd ui && npm run typecheck && npm run lint && npm test && npm run check-workflows

# Browser tests: the built UI in Debian's Chromium against `baton serve`.
e2e: ui
	$(CARGO) build --bin baton
	cd ui && BATON_E2E_REQUIRE=1 npm run e2e

# The real desktop app under Xvfb, driven by tauri-driver and WebKitWebDriver.
app-test: app app-e2e/node_modules/.baton-stamp
	@command -v tauri-driver >/dev/null || $(CARGO) install tauri-driver --locked
	$(CARGO) clippy -p baton-app -- -D warnings
	cd app-e2e && npm test

# Snapshots never rewrite themselves in a test run (review changes with `cargo insta review`).
# The servers the Rust tests start (PostgreSQL, llama.cpp) are stopped whatever the result.
test: deps check
	INSTA_UPDATE=no $(CARGO) test; s=$$?; scripts/llama.sh stop >/dev/null 2>&1; scripts/pg.sh stop; exit $$s
	$(MAKE) ui-test e2e app-test dist-test

bench: deps
	$(CARGO) bench --bench engine
	$(CARGO) bench --bench store
	$(CARGO) build --release --bin baton
	$(CARGO) bench --bench import
	$(CARGO) bench --bench collect
	$(CARGO) bench --bench suspects
	$(CARGO) bench --bench scale
	$(CARGO) bench --bench team

# The UI at scale (issue #21), every figure printed: the browser benches (ui/bench/*.bench.mjs,
# Debian's Chromium against `baton serve`), then the real app's release build under Xvfb
# (app-e2e/bench.mjs: size, cold start, idle memory, the debugger on a 100,000-step run).
bench-ui: deps ui/node_modules/.baton-stamp app-e2e/node_modules/.baton-stamp app-release
	@command -v tauri-driver >/dev/null || $(CARGO) install tauri-driver --locked
	$(CARGO) build --release --bin baton
	cd ui && BATON_BIN=$(abspath target/release/baton) BATON_E2E_NO_BUILD=1 node bench/run.mjs
	cd app-e2e && BATON_APP=$(abspath $(APP_RELEASE)) node bench.mjs

# Fuzz every importer for FUZZ_SECONDS each (needs cargo-fuzz).
FUZZ_SECONDS ?= 600
fuzz:
	@command -v cargo-fuzz >/dev/null || $(CARGO) install cargo-fuzz --locked
	scripts/fuzz.sh $(FUZZ_SECONDS)
