# Every target runs inside the project's own virtual environment, created on demand.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: version-env guard-sweep extras-check gateways-report adapters-js js-if-node test release-check lint typecheck demo clean corpus verify docs adapters-report captures bench fuzz bench-corpus bench-adapters bench-serve bench-serve-cpu bench-serve-reads bench-digest bench-matrix-cpu bench-patterns bench-clients bench-shrink client-versions field-bugs

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

test: $(STAMP) js-if-node release-check
	$(BIN)/ruff check toolstream generators tests bench scripts setup.py
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(MAKE) --no-print-directory version-env
	$(BIN)/python -m pytest -q -n 2

# The older client releases the tests drive (tests/clients/test_client_version_env.py):
# openai-python 2.8.0, and openai-node 4.104.0 and @ai-sdk/openai-compatible 0.2.15, 0.2.16,
# 2.0.57, 2.0.58, 3.0.23 when npm is here (3.0.23 with the Node.js 22 from npm its engines ask
# for when node here is older: 23 s cold, the Node.js included), built into the user cache
# here, where reaching the package indexes is an install step, so that no test does;
# reused once built.
version-env: $(STAMP)
	$(BIN)/python -c 'from toolstream.clients.registry import CLIENTS; from toolstream.clients.versions import prepare_env; print(prepare_env(CLIENTS["openai-chat-create"], "2.8.0", progress=print))'
	@if command -v npm >/dev/null 2>&1; then \
		$(BIN)/python -c 'from toolstream.clients.registry import CLIENTS; from toolstream.clients.versions import prepare_env; print(prepare_env(CLIENTS["openai-node-chat-stream"], "4.104.0", progress=print))'; \
		$(BIN)/python -c 'from toolstream.clients.registry import CLIENTS; from toolstream.clients.versions import prepare_env; [print(prepare_env(CLIENTS["ai-sdk-openai-compatible"], v, progress=print)) for v in ("0.2.15", "0.2.16", "2.0.57", "2.0.58", "3.0.23")]'; \
	else \
		echo "npm not found: the openai-node and @ai-sdk/openai-compatible folders are not built (their tests skip)"; \
	fi

# The release check: the standard-library suite at the top of tests/ under the bare
# interpreter (-S: no site-packages, so nothing installed), the command the design names.
release-check:
	PYTHONDONTWRITEBYTECODE=1 $(PYTHON) -S -m unittest discover -s tests -p 'test_*.py'

lint: $(STAMP)
	$(BIN)/ruff check toolstream generators tests bench scripts setup.py

typecheck: $(STAMP)
	$(BIN)/mypy

# The main job end to end: a mutant corpus from a bundled seed, verified.
demo: $(STAMP)
	@rm -rf out/demo-corpus
	$(BIN)/toolstream generate corpus/seeds/openai-parallel.json -o out/demo-corpus --per-operator --count 3 --seed 0
	$(BIN)/toolstream verify out/demo-corpus
	@for f in corpus/seeds/*.json; do \
		echo "== toolstream validate $$f"; \
		$(BIN)/toolstream validate $$f; \
	done

# The shipped corpus (count/seed = SHIPPED_COUNT/SHIPPED_SEED in toolstream/corpus/generate.py).
corpus: $(STAMP)
	$(BIN)/toolstream generate corpus/seeds/*.json -o corpus/cases --per-operator --count 25 --seed 0 --clean

verify: $(STAMP)
	$(BIN)/toolstream verify corpus/cases

ADAPTERS_STAMP := $(VENV)/.adapters-installed

$(ADAPTERS_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,adapters,clients,litellm]'
	touch $(ADAPTERS_STAMP)

# The JavaScript clients (toolstream/clients/js): npm ci from the committed lockfile
# into toolstream/clients/js/node_modules (ignored by git).
JS := toolstream/clients/js
JS_STAMP := $(JS)/node_modules/.toolstream-installed

$(JS_STAMP): $(JS)/package.json $(JS)/package-lock.json
	cd $(JS) && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
	touch $(JS_STAMP)

adapters-js: $(JS_STAMP)

# make test installs the JavaScript clients when node and npm are here; without
# them their tests skip, naming what is missing.
js-if-node:
	@if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then \
		$(MAKE) --no-print-directory adapters-js; \
	else \
		echo "node/npm not found: the JavaScript client tests will be skipped"; \
	fi

# docs/adapters.md: the built-in adapters; every client (plain, the whole corpus: about 35
# minutes on two cores), its run kept as out/clients.json; corpus/DISTILL.jsonl distilled from
# that run (the fewest cases that keep every behaviour it shows); then every client x transport
# over those cases (about 45 minutes), also as docs/adapters-report.html (out/ when 5 MB or more)
adapters-report: $(ADAPTERS_STAMP) js-if-node
	$(BIN)/python scripts/adapters_report.py --only adapters
	$(BIN)/python scripts/adapters_report.py --only clients -j 2 --save-result out
	rm -rf out/distilled
	$(BIN)/toolstream distill corpus/cases --result out/clients.json -o out/distilled
	cp out/distilled/DISTILL.jsonl corpus/DISTILL.jsonl
	$(BIN)/python scripts/adapters_report.py --only matrix -j 2 --distilled corpus/DISTILL.jsonl

GATEWAYS_STAMP := $(VENV)/.gateways-installed

$(GATEWAYS_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,gateways]'
	touch $(GATEWAYS_STAMP)

# docs/gateways.md: the LiteLLM proxy over corpus/cases, every translation pair (long)
gateways-report: $(GATEWAYS_STAMP)
	$(BIN)/python scripts/gateways_report.py

# toolstream.guard over every shipped case each SDK reads (openai-python chat and
# Responses, anthropic, google-genai, boto3) and the README's guard examples over every
# openai and anthropic case, through toolstream serve (docs/performance.md; minutes).
guard-sweep: $(STAMP)
	$(BIN)/python -m pytest -q -m slow -p no:cacheprovider tests/clients/test_guard.py

# Each optional extra installed into a fresh virtual environment from the package index,
# its modules imported and one case run through it (docs/extras.md; downloads).
extras-check: $(STAMP)
	$(BIN)/python scripts/check_extras.py --write docs/extras.md

# Import every real capture in ../shared/captures and check its verdict.
captures: $(STAMP)
	$(BIN)/python -m pytest tests/e2e/test_captures.py -q

# Performance against the floor and the SDK accumulators (docs/performance.md; long).
bench: $(ADAPTERS_STAMP)
	$(BIN)/python bench/run.py

# Time-bounded fuzzing of the validator (docs/hardening.md). FUZZ_MINUTES=5 by default.
FUZZ_MINUTES ?= 5
fuzz: $(STAMP)
	$(BIN)/python bench/fuzz.py --minutes $(FUZZ_MINUTES)

# Corpus throughput: generate and verify 10,000 cases, serial and -j 2.
bench-corpus: $(STAMP)
	$(BIN)/python bench/corpus.py

# User adapters (a Python callable, node per line and per case) over corpus/cases
bench-adapters: $(STAMP)
	$(BIN)/python bench/adapters.py

# The Python clients over corpus/cases: each with the plain transport (-j 2), then
# the full Python matrix (every Python client x every transport); docs/performance.md.
bench-clients: $(ADAPTERS_STAMP)
	$(BIN)/python bench/clients.py

# shrink --client per client on a sample of disagreements (median, p90); docs/performance.md.
# Up to SHRINK_PER_CLIENT disagreements each, in rounds; no shrink starts after 8 minutes.
SHRINK_PER_CLIENT ?= 2
bench-shrink: $(ADAPTERS_STAMP) js-if-node
	$(BIN)/python bench/shrink.py --per-client $(SHRINK_PER_CLIENT)

# toolstream serve under load: the shipped corpus through 1, 16 and 64 concurrent clients.
bench-serve: $(STAMP)
	$(BIN)/python bench/serve.py

# The server's own CPU per request (handler thread CPU time), 300 cases once each; docs/performance.md.
bench-serve-cpu: $(STAMP)
	$(BIN)/python bench/serve_cpu.py

# Reads per write at each pause (raw socket, every:16): docs/serve.md, "Writes reach
# the client one by one". SERVE_READS_LOAD=N keeps N busy processes running meanwhile.
SERVE_READS_LOAD ?= 0
bench-serve-reads: $(STAMP)
	$(BIN)/python bench/serve_reads.py --load $(SERVE_READS_LOAD)

# Digests of every corpus case's and bench stream's reports (three routes):
# run on two trees (PYTHONPATH=TREE) to show a speed change changed no byte.
bench-digest: $(STAMP)
	$(BIN)/python bench/report_digest.py

# A whole-corpus single-transport client matrix's CPU seconds (cut-close, a client per
# wire format, one JS, one LiteLLM route; -j 2), trees interleaved; docs/performance.md.
# MATRIX_TREES='before=/tmp/wt after=.' compares checkouts (default: this one alone).
bench-matrix-cpu: $(ADAPTERS_STAMP) js-if-node
	$(BIN)/python bench/matrix_cpu.py $(foreach t,$(MATRIX_TREES),--tree $(t))

# Three releases of each client that takes --client NAME==VERSION over a corpus sample,
# and one real bisect (environments built into the user cache: minutes cold);
# docs/client-versions.md.  ONLY=NAME[,NAME...]: those clients' rows alone, the rest kept.
client-versions: $(ADAPTERS_STAMP) js-if-node
	$(BIN)/python bench/client_versions.py $(if $(ONLY),--only $(ONLY))

# The field's bug reports (bench/field_bugs/) on their releases; docs/field-bugs.md.
field-bugs: $(ADAPTERS_STAMP)
	$(BIN)/python bench/field_bugs.py

# Schema pattern timings: pathological patterns and subjects stay under their bounds.
bench-patterns: $(STAMP)
	$(BIN)/python bench/patterns.py

# Docs derived from code (finding catalogue, state diagram).
docs: $(STAMP)
	$(BIN)/python scripts/render_docs.py

clean:
	rm -rf $(VENV) build *.egg-info
