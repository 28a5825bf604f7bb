# Autograph: the two commands a newcomer runs are `make run` and `make test`.
SWIFT ?= swift
BUILD_DIR ?= .build
DEMO := $(BUILD_DIR)/demo
AUTOGRAPH := $(BUILD_DIR)/release/autograph
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= all
# Corpus files `make test` renders against MuPDF and poppler: Type 3, CID
# and CJK fonts (embedded, substituted, OpenType), DCT, JBIG2, CCITT and JPX images, masks, forms,
# encryption, a highlight's blend mode. Every page must match (the corpus is optional: skipped
# with a notice where absent).
FIDELITY_SUBSET := pdfjs/issue9655_reduced.pdf,pdfjs/issue19532.pdf,\
pdfjs/noembed-identity-2.pdf,pdfjs/issue5010.pdf,pdfjs/issue18042.pdf,pdfjs/bitmap-template1.pdf,\
pdfjs/images_1bit_grayscale.pdf,pdfjs/issue1985.pdf,pdfjs/jp2k-resetprob.pdf,pdfjs/bug_jpx.pdf,\
qpdf/field-resource-conflict.pdf,pyhanko/simple-acroform-states.pdf,pdfjs/saslprep-r6.pdf,\
pdfjs/issue9915_reduced.pdf,pdfjs/issue7901.pdf,pdfjs/issue8823.pdf,pdfjs/issue13242.pdf,\
pyhanko/layout-tests/bitmap-bg.pdf

.PHONY: run demo test build release bench fidelity fuzz asan format lint clean docs

## run: install what is missing, build, and serve the web viewer on the demo form (made by Autograph)
## with a demo signing identity: open the printed URL, fill, sign, download a document that validates
run: release
	@mkdir -p $(DEMO)
	$(AUTOGRAPH) serve --store $(DEMO)/serve

## demo: the same job without a browser, through the session API, printing each event
demo: release
	@mkdir -p $(DEMO)
	$(AUTOGRAPH) demo --out $(DEMO)
	$(AUTOGRAPH) info $(DEMO)/signed.pdf

## test: install what is missing (qpdf as the oracle), check formatting, and run every test
test:
	scripts/install-deps test
	$(SWIFT) format lint --strict --recursive Sources Tests
	# The module graph as ARCHITECTURE.md draws it; tests that skip say so.
	python3 scripts/check-architecture
	python3 scripts/check-tests
	# The viewer's JavaScript: Biome's errors fail (its style hints do not).
	biome lint --diagnostic-level=error Web/
	$(SWIFT) build --build-tests
	SWIFT=$(SWIFT) scripts/swift-test --skip-build --skip PDFWebTests --skip ServeOutboundFetchTests
	# The web server's tests on their own (and the CLI's that run a server in process): other suites
	# block the shared thread pool with waits on the oracles' processes, and the server answers
	# requests from that pool.
	SWIFT=$(SWIFT) scripts/swift-test --skip-build --filter "PDFWebTests|ServeOutboundFetchTests" \
	  --skip WebRenderBudgetTests --skip WebConnectionTests
	# The render budget's heavy pages on their own: they take the process's rendering threads.
	SWIFT=$(SWIFT) scripts/swift-test --skip-build --filter WebRenderBudgetTests
	# The attacks on the server's connections on their own: they time a person's requests.
	SWIFT=$(SWIFT) scripts/swift-test --skip-build --filter WebConnectionTests
	python3 scripts/fidelity.py --autograph $(BUILD_DIR)/debug/autograph --out $(BUILD_DIR)/fidelity-subset \
	  --files "$(FIDELITY_SUBSET)" --min-share 1.0
	scripts/browser-tests $(BUILD_DIR)/debug/autograph

## docs: DocC archives of every public module in .build/docs (the toolchain's docc; fails on a warning
## or on a public declaration without a doc comment, listed with the coverage of each module)
docs:
	scripts/install-deps build
	scripts/docs

build:
	scripts/install-deps build
	$(SWIFT) build

# The tool links the Swift runtime and the C libraries that have Debian archives statically
# (scripts/static-pkgconfig): `autograph --version` starts in 3.2 ms instead of 8.
STATIC_PKG_CONFIG := PKG_CONFIG_PATH=$(CURDIR)/$(BUILD_DIR)/static-pkgconfig
release:
	scripts/install-deps build
	scripts/static-pkgconfig $(BUILD_DIR)/static-pkgconfig
	$(STATIC_PKG_CONFIG) $(SWIFT) build -c release --static-swift-stdlib --product autograph

## bench: Autograph beside qpdf/pikepdf on the corpus and on a generated 1 GB file, as ratios;
## then `autograph serve` under 50 clients for 60 s (scripts/load-test.py)
bench: release
	scripts/install-deps bench
	# SwiftPM does not see files added to the root package from the nested one's cached build plan.
	rm -f Benchmarks/.build/*/release/description.json
	$(STATIC_PKG_CONFIG) $(SWIFT) build -c release --static-swift-stdlib --package-path Benchmarks
	Benchmarks/.build/release/autograph-bench
	@echo "web viewer: navigation to the first page's pixels (352-page corpus document), release build"
	AUTOGRAPH_BENCH=1 scripts/browser-tests $(AUTOGRAPH) -k test_09
	@echo "web server under load: 50 clients for 60 s on a form with a 2-million-operator page and a PNG bomb, release build"
	python3 scripts/load-test.py --autograph $(AUTOGRAPH) --log $(BUILD_DIR)/load-test-serve.log

## fidelity: page 1 (and more of multi-page files) of every corpus file against MuPDF and poppler
fidelity: release
	scripts/install-deps test
	python3 scripts/fidelity.py --autograph $(BUILD_DIR)/release/autograph --out $(BUILD_DIR)/fidelity

## fuzz: run every libFuzzer target in turn (FUZZ_SECONDS each, one worker; FUZZ_TARGETS to choose),
## seeded from Tests/Fixtures and ../shared/corpus, with a summary a target (runs, coverage, findings)
fuzz:
	scripts/install-deps build
	scripts/fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

## asan: autograph built with AddressSanitizer (release, .build/asan) runs info, render, text, fill,
## sign and verify over every corpus PDF in one run; fails on any AddressSanitizer report or trap
asan:
	scripts/install-deps build
	$(SWIFT) build -c release --product autograph --sanitize=address --scratch-path $(BUILD_DIR)/asan
	ASAN_OPTIONS=detect_leaks=0 python3 scripts/asan-corpus.py --autograph $(BUILD_DIR)/asan/release/autograph

format:
	$(SWIFT) format --in-place --recursive Sources Tests Benchmarks/Sources

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests

clean:
	rm -rf $(BUILD_DIR) Benchmarks/.build
