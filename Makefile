# portkern: `make demo` runs the performance-portability report, `make test` runs every test. Both install
# missing Debian packages first, then configure and build (CMake presets in CMakePresets.json).
JOBS ?= $(shell nproc)
VENV := .venv
PYTHON := $(VENV)/bin/python

.PHONY: demo test build deps venv sanitize tsan gpu-check clean

# TORCH=FILE: PyTorch's network times (tools/net/torch_net.py --json on a GPU machine) beside the report's.
demo: build
	./build/portkern report --json build/report.json
	$(PYTHON) tools/report/html_report.py build/report.json build/report $(if $(TORCH),--torch $(TORCH))

test: build
	ctest --preset default

build: deps venv   # venv first: CMake registers the tuning pipeline's tests when it exists
	cmake --preset default
	cmake --build --preset default -j $(JOBS)

deps:
	bash scripts/install-deps.sh

# The tuning pipeline's Python environment, pinned (tools/tuning/requirements.txt).
venv: $(VENV)/.installed
$(VENV)/.installed: tools/tuning/requirements.txt | deps
	python3 -m venv $(VENV)
	$(PYTHON) -m pip install -q --disable-pip-version-check -r tools/tuning/requirements.txt
	touch $@

# AddressSanitizer + UndefinedBehaviorSanitizer over the CPU tests (not the netlib BLAS programs: an
# instrumented library cannot be LD_PRELOADed into an uninstrumented program).
sanitize: deps
	cmake --preset sanitize
	cmake --build --preset sanitize -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1 ctest --preset sanitize

# ThreadSanitizer over the concurrency stress tests (tests/test_concurrency.cpp): threads calling conv2d and
# gemm on shared and separate queues. Only those tests: libgomp is not instrumented (docs/threading.md).
tsan: deps
	cmake --preset tsan
	cmake --build --preset tsan -j $(JOBS)
	ctest --preset tsan

# On a machine with an NVIDIA GPU: build, GPU tests, benchmarks, a short table.
gpu-check:
	bash scripts/gpu-check.sh

clean:
	rm -rf build build-cpu build-sanitize build-tsan
