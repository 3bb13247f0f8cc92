# dyn — two commands do everything on a fresh machine: `make run` and `make test`.
SWIFT ?= swift
PORT ?= 7700
SCENE ?= default

.PHONY: all bootstrap build release run server test bench bench-native profile soak fuzz sanitize clean

all: build

bootstrap:
	@scripts/bootstrap.sh

build: bootstrap
	$(SWIFT) build

release: bootstrap
	@scripts/why-build.sh .build/release
	$(SWIFT) build -c release

## make run: release build, a server on 127.0.0.1:$(PORT) in the background, a terminal client in front.
run: release
	@PORT=$(PORT) SCENE=$(SCENE) scripts/run.sh

## make server: just the server, in the foreground (Ctrl-C stops it).
server: release
	.build/release/dynserver --port $(PORT) --scene $(SCENE)

## make test: every unit and end-to-end test (real processes, real TCP on 127.0.0.1), in four runs so that the
## end-to-end suites never share the CPU with the CPU-heavy ones: the physics suites (one test at a time: Swift
## Testing starts every test of a parallel run at once and each test's time limit counts from then, so on a busy
## machine a test's limit would measure the whole suite's wall time), then the other
## unit suites (in parallel: apart, so that their one-minute limits never wait behind a minute of physics), then the dynbench
## process tests (one at a time), then the end-to-end suites (one real server at a time). Then the room, fleet and
## replay suites against a ThreadSanitizer dynserver (scripts/tsan-e2e.sh) and a short pass of every fuzz target
## (scripts/fuzz.sh: FUZZ_RUNS executions each from a fixed seed, the same inputs every run). Every `swift test` runs under an outer watchdog (scripts/test-run.sh) that
## kills a hung run and names the tests that started and never finished. Under CI=true a tool a test needs
## (chromium, promtool, redis-server, redis-cli, setpriv, node) that is missing fails bootstrap and those tests; elsewhere
## they are skipped, saying how to install it. scripts/check-tests.sh first checks that every test has a time
## limit, no server value is force-unwrapped and no wall-clock threshold escapes DYN_TIMING; after the build it
## checks that the four filters below reach every test (a new suite must match one of them).
PHYSICS_SUITES = DynamicsTests\.
UNIT_SUITES = NetProtocolTests\.|DynServerTests\.|DynClientTests\.
BENCH_SUITES = EndToEndTests\.DynbenchPhysicsTests
E2E_SUITES = EndToEndTests\.EndToEnd
FUZZ_RUNS ?= 20000
test: bootstrap
	@scripts/check-tests.sh
	$(SWIFT) build --build-tests
	@scripts/check-tests.sh --filters '$(PHYSICS_SUITES)' '$(UNIT_SUITES)' '$(BENCH_SUITES)' '$(E2E_SUITES)'
	@scripts/test-run.sh 900 '$(PHYSICS_SUITES)' --no-parallel
	@scripts/test-run.sh 600 '$(UNIT_SUITES)'
	@scripts/test-run.sh 600 '$(BENCH_SUITES)'
	@scripts/test-run.sh 1500 '$(E2E_SUITES)'
	@scripts/tsan-e2e.sh 900
	@FUZZ_RUNS=$(FUZZ_RUNS) scripts/fuzz.sh

## make bench: the dynbench suite in release (physics on dyn's and Box2D v3's benchmark scenes, codec, server
## load); one JSON line each. Side by side with Box2D v3 (built outside the repo):
##   .build/release/dynbench physics --scene pyramid --size 40 --no-sleep --compare-box2d3 PATH/bench3-sse2
bench: release
	.build/release/dynbench physics --scene pyramid --size 40 --steps 600 --no-sleep
	.build/release/dynbench physics --scene pyramid --size 40 --steps 600
	.build/release/dynbench physics --scene pyramid --size 100 --steps 300 --no-sleep
	.build/release/dynbench physics --scene rain --size 1000 --steps 600 --no-sleep
	.build/release/dynbench physics --scene pyramid --size 100 --steps 300 --wake-one
	.build/release/dynbench physics --scene pyramid --size 100 --steps 300 --wake-one --apart
	.build/release/dynbench physics --scene large_pyramid --steps 500 --no-sleep
	.build/release/dynbench physics --scene many_pyramids --steps 200 --no-sleep
	.build/release/dynbench physics --scene joint_grid --steps 500 --no-sleep
	.build/release/dynbench physics --scene tumbler --steps 750
	.build/release/dynbench physics --scene smash --steps 300
	.build/release/dynbench physics --scene spinner --steps 500
	.build/release/dynbench physics --scene bounce --steps 600
	.build/release/dynbench codec
	.build/release/dynbench server --clients 100 --bodies 1000 --seconds 10

## make bench-native [BOX2D3=PATH/bench3-avx2]: dynbench built for this machine's CPU with 8-lane solver chunks
## (SIMD8<Float>, docs/ARCHITECTURE.md, "The physics step"), in its own build directory, side by side with
## Box2D v3's AVX2 build on pyramid 40, rain 1000 and pyramid 100.
BOX2D3 ?= /tmp/box2d3/bench3-avx2
bench-native: bootstrap
	$(SWIFT) build -c release --product dynbench --scratch-path .build/native \
		-Xswiftc -DDYN_LANES8 -Xswiftc -target-cpu -Xswiftc native
	.build/native/release/dynbench physics --scene pyramid --size 40 --no-sleep --compare-box2d3 $(BOX2D3) --rounds 3
	.build/native/release/dynbench physics --scene rain --size 1000 --no-sleep --compare-box2d3 $(BOX2D3) --rounds 3
	.build/native/release/dynbench physics --scene pyramid --size 100 --no-sleep --compare-box2d3 $(BOX2D3) --rounds 3

## make profile [ARGS="--scene pyramid --size 100 --steps 40 --no-sleep"]: instructions per step by stage (callgrind).
profile: bootstrap
	@scripts/profile-step.sh $(ARGS)

clean:
	rm -rf .build

## make fuzz [SECONDS=N]: the libFuzzer target for framing and decoding, N seconds (default 60).
fuzz:
	@scripts/fuzz.sh $(if $(filter file,$(origin SECONDS)),60,$(SECONDS))

## make sanitize: the end-to-end suite against an AddressSanitizer dynserver, then a valgrind run.
sanitize: bootstrap
	@scripts/sanitize.sh

## make soak: the long reliability variants (5 000 churn, 1 byte/s slowloris, 1 000 idle connections for a minute) and every wall-clock, rate and RSS threshold (DYN_TIMING=1): the whole end-to-end suite against a release server.
soak: bootstrap
	@scripts/soak.sh
