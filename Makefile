# Baton: `make run` opens the app on the embedded example; `make test` runs every test.
# Both install what a fresh Debian 12 machine lacks first (as root).

CARGO ?= cargo
EXAMPLE ?= examples/ticket-reopen.yaml

.PHONY: run test deps pyenv check bench

deps:
	@scripts/deps.sh
	@scripts/pyenv.sh >/dev/null

run: deps
	$(CARGO) build --release --bin baton
	./target/release/baton lint $(EXAMPLE)
	./target/release/baton export $(EXAMPLE) --to mermaid

check:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --all-targets -- -D warnings

test: deps check
	$(CARGO) test

bench: deps
	$(CARGO) bench --bench engine
	$(CARGO) bench --bench store
	$(CARGO) build --release --bin baton
	$(CARGO) bench --bench import
