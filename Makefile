GO ?= go

.PHONY: test race build vet fmt bench demo docs nodejs-deps

# test runs the whole suite: formatting, vet and every test. Tests that check
# Cairn against Pulumi's own binaries or OpenTofu, need node, or drive the
# console in Chromium skip without them (go test shows no skips unless
# verbose), so it first says which are missing; CAIRN_REQUIRE_LANGUAGES=1,
# CAIRN_REQUIRE_TOFU=1 and CAIRN_REQUIRE_CHROMIUM=1 make those tests fail
# instead. `.ci/tofu` builds OpenTofu (see .ci/run).
EXTERNAL = pulumi-language-nodejs pulumi-language-yaml tofu node npm chromium
test: fmt vet nodejs-deps
	@for b in $(EXTERNAL); do command -v $$b >/dev/null || \
		echo "SKIPPED: $$b is not on PATH, so the tests that need it will skip"; done
	$(GO) test -timeout 60m ./...

# race runs the tests of the packages that run goroutines of their own (the
# engine, the evaluator, the plugin host, the Terraform provider client and
# installer, the language hosts, the language server and the console)
# again under the race detector: about 8 minutes of CPU time (460 s
# measured without Chromium and the npm packages, whose tests add to it).
RACE_PACKAGES = ./engine/... ./eval/... ./plugins/host/... ./plugins/tfplugin/... ./plugins/tfinstall/... \
	./plugins/langhost/... ./internal/lsp/... ./internal/console/...
race:
	$(GO) test -timeout 30m -race $(RACE_PACKAGES)

build:
	$(GO) build -o bin/cairn ./cmd/cairn

# nodejs-deps installs the pinned npm packages that the Node.js, TypeScript,
# dynamic provider and policy pack tests run with (testdata/nodejs), when
# npm is there and they are missing or older than their lock file.
NODE_DEPS = testdata/nodejs/node_modules/.package-lock.json
nodejs-deps:
	@if command -v npm >/dev/null; then $(MAKE) --no-print-directory $(NODE_DEPS); \
	else echo "SKIPPED: npm is not on PATH, so the Node.js language tests will skip"; fi

$(NODE_DEPS): testdata/nodejs/package.json testdata/nodejs/package-lock.json
	cd testdata/nodejs && npm ci --no-audit --no-fund --loglevel=error

vet:
	$(GO) vet ./...

fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# docs regenerates the command reference in docs/cli from the command tree
# of cmd/cairn; TestCLIReference (part of make test) fails when it is stale.
docs:
	$(GO) test ./cmd/cairn -run '^TestCLIReference$$' -count=1 -update

# bench builds cairn and the latency provider, then measures whole-process
# runs on generated stacks and prints a markdown table (see BENCHMARKS.md;
# about 20 minutes on 2 cores). BENCH_QUICK=1 makes a short run;
# BENCH_LARGE=1 adds the stacks of 100,000 resources and of 10,000
# null_resource, independent and chained (one run each); BENCHFLAGS passes
# flags to cairnbench (go run ./bench/cmd/cairnbench -help). The rows of
# null_resource show the floor of each phase beside it (BenchmarkNull*Calls).
BENCH_LARGE_FLAGS = -n 100,1000,10000,100000 -null-n 1000,10000 -null-chain-n 10000 -big-runs 1
bench: build
	$(GO) build -o bin/pulumi-resource-latency ./bench/latency
	$(GO) run ./bench/cmd/cairnbench $(if $(BENCH_LARGE),$(BENCH_LARGE_FLAGS)) $(BENCHFLAGS)

# demo runs the main job: an up of the quickstart example on the local
# backend in .cairn/ (creating its stack dev the first time), then shows the
# stack's outputs. Run it again to see a no-change update.
DEMO_ENV = CAIRN_HOME=$(CURDIR)/.cairn CAIRN_CONFIG_PASSPHRASE=demo
demo: build
	cd examples/quickstart-yaml && $(DEMO_ENV) ../../bin/cairn stack select --create dev
	cd examples/quickstart-yaml && $(DEMO_ENV) ../../bin/cairn up --stack dev --yes
	cd examples/quickstart-yaml && $(DEMO_ENV) ../../bin/cairn stack output --stack dev
