# Autograph: the two commands a newcomer runs are `make run` and `make test`.
SWIFT ?= swift
BUILD_DIR ?= .build
SAMPLE := $(BUILD_DIR)/sample.pdf
FUZZ_SECONDS ?= 60

.PHONY: run test build release bench fuzz format lint clean

## run: install what is missing, build, and describe a sample document made by Autograph
run: release
	$(BUILD_DIR)/release/autograph sample -o $(SAMPLE)
	$(BUILD_DIR)/release/autograph info $(SAMPLE)

## test: install what is missing (qpdf as the oracle), check formatting, and run every test
test:
	scripts/install-deps test
	$(SWIFT) format lint --strict --recursive Sources Tests
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

build:
	scripts/install-deps build
	$(SWIFT) build

# The tool links the Swift runtime statically: it starts in half the time.
release:
	scripts/install-deps build
	$(SWIFT) build -c release --static-swift-stdlib --product autograph

## bench: Autograph beside qpdf/pikepdf on the corpus and on a generated 1 GB file, as ratios
bench:
	scripts/install-deps bench
	$(SWIFT) build -c release --static-swift-stdlib --package-path Benchmarks
	Benchmarks/.build/release/autograph-bench

## fuzz: run the parser/xref/filter fuzzer for FUZZ_SECONDS seconds
fuzz:
	scripts/install-deps build
	scripts/fuzz $(FUZZ_SECONDS)

format:
	$(SWIFT) format --in-place --recursive Sources Tests Benchmarks/Sources

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests

clean:
	rm -rf $(BUILD_DIR) Benchmarks/.build
