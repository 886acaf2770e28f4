# Waves: `make demo` and `make test` are all a fresh Debian 12 machine with
SHELL := /bin/bash
# Swift needs; each installs the system packages it is missing first.
SWIFT   ?= swift
RELEASE := .build/release/waves
DEBUG   := .build/debug/waves

# What building, headless GL (Mesa's EGL and llvmpipe), the window tests
# (Xvfb), shader validation, the raster preset's cairo peer, the render memory test (GNU time) and the microphone (PortAudio) and waves audiowaveform (libmad, libgd) need from Debian.
PACKAGES := pkg-config libpng-dev libgl-dev libegl-dev libglfw3-dev libstb-dev libsndfile1-dev libchipmunk-dev \
	          libegl-mesa0 libgl1-mesa-dri xvfb xauth glslang-tools ffmpeg librsvg2-bin libcairo2 time \
	          portaudio19-dev libmad0-dev libgd-dev libpolyclipping-dev

.PHONY: deps build release demo test examples docs shaders generated check-shaders bench gpu-bundle clean install install-files uninstall fuzz fuzz-build
.PHONY: cluster-deps lottie-peers

# make install: the binary, its man page (generated from the command
# definitions by swift-argument-parser's generate-manual), bash, zsh and
# fish completions, and the git commit it was built from (waves --version).
PREFIX ?= /usr/local
CONFIG ?= release
COMMIT := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD 2>/dev/null || echo -modified)

# The Debian packages named, those missing installed: as root with apt-get,
# otherwise the exact command is printed and make stops.
define install_packages
	@missing=$$(for p in $(1); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; \
	  done | tr '\n' ' '); \
	if [ -n "$${missing// }" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing: $$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	  else \
	    echo "missing system packages; run:"; \
	    echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends $$missing"; \
	    exit 1; \
	  fi; \
	fi
endef

deps:
	$(call install_packages,$(PACKAGES))

# make cluster-deps: what contrib/ needs to run waves batch on a real
# one-node Slurm (contrib/slurm/start-local-slurm.sh) and a local Ray here:
# Debian's slurm-wlm (22.05) and munge, as deps installs its packages, and
# the Ray venv (.build/ray-venv, ray pinned by contrib/ray/requirements.txt).
cluster-deps:
	$(call install_packages,slurm-wlm munge)
	@contrib/ray/setup-venv.sh >/dev/null

# make lottie-peers: the Lottie peers' venv (.build/lottie-venv:
# rlottie-python and thorvg-python pinned by contrib/lottie/requirements.txt),
# for the agreement test and waves bench lottie.
lottie-peers:
	@contrib/lottie/setup-venv.sh >/dev/null

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product waves

# Opens the side-by-side window where there is a display; renders the same
# comparison headless to a PNG where there is none.
demo: release
	$(RELEASE) demo

# Regenerates Sources/WaveGL/EmbeddedShaders.swift from Shaders/*.glsl, and
# Shaders/timeline_codes.inc (the constants copies_state.frag.glsl reads
# timeline records with, for the offline validator) from WaveCore's
# TimelineCode, through the test that holds the two equal.
shaders:
	./Scripts/embed-shaders.sh > Sources/WaveGL/EmbeddedShaders.swift
	WAVES_WRITE_GENERATED=1 $(SWIFT) test --filter TimelineCodeTests

# Rewrites what is generated from declarations: the shaders' constants
# (above) and docs/cli.md's tables of each effect's options, through the
# tests that hold them equal.
generated: shaders
	WAVES_WRITE_GENERATED=1 $(SWIFT) test --filter DeclaredParametersTests/testTheCommandLineDocsOptionTablesAreTheDeclarations

check-shaders: deps
	@# Each shader as ShaderProgram makes it: a shader that reads timeline records gets the generated constants
	@# after its version line, and a line #include "name" becomes Shaders/name.
	@mkdir -p .build/shaders
	@for f in Shaders/*.glsl; do \
	  stage=$$(case $$f in *.vert.glsl) echo vert;; *.frag.glsl) echo frag;; esac); \
	  out=.build/shaders/$$(basename $$f); \
	  { head -n 1 $$f; if grep -q 'KIND_BASIC' $$f; then cat Shaders/timeline_codes.inc; fi; tail -n +2 $$f; } \
	    | awk '/^#include "/ { split($$0, q, "\""); while ((getline line < ("Shaders/" q[2])) > 0) print line; close("Shaders/" q[2]); next } { print }' > $$out; \
	  glslangValidator -S $$stage $$out >/dev/null || { glslangValidator -S $$stage $$out; exit 1; }; \
	done
	@# item.frag.glsl (the layer tree's items): each source, with and without a gradient and masks (a mask texture, or
	@# a lone path read in place: its picture, MASK_PICTURE, or its polygon, MASK_POLYGON).
	@for d in "-DPICTURE_COVERAGE -DGRADIENT -DMASKED" "-DPICTURE_COVERAGE -DSUPERSAMPLED" "-DPICTURE_RGBA -DMASKED" "-DGRADIENT -DAS_MASK" "-DPICTURE_COVERAGE -DAS_MASK" "-DRECT -DMASKED" "-DPICTURE_COVERAGE -DMASKED -DMASK_PICTURE" "-DGRADIENT -DMASKED -DMASK_POLYGON"; do \
	  glslangValidator -l -S frag $$d .build/shaders/item.frag.glsl >/dev/null || { glslangValidator -l -S frag $$d .build/shaders/item.frag.glsl; exit 1; }; \
	done
	@# box.frag.glsl: masked, and the lattice draw (general and axis-aligned) plain and masked.
	@for d in "-DMASKED" "-DLATTICE" "-DLATTICE -DMASKED" "-DLATTICE -DAXIS_ALIGNED" "-DLATTICE -DAXIS_ALIGNED -DMASKED"; do \
	  glslangValidator -l -S frag $$d .build/shaders/box.frag.glsl >/dev/null || { glslangValidator -l -S frag $$d .build/shaders/box.frag.glsl; exit 1; }; \
	done
	@# pictures.frag.glsl and instance_runs.frag.glsl: masked (the runs of either kind or both by a mask read in place too). copies_state.frag.glsl (with its constants, above): the sole clips' state.
	@for d in "-DPICTURES" "-DPOLYGONS" "-DPICTURES -DPOLYGONS -DMASKED" "-DPICTURES -DMASKED -DMASK_PICTURE" "-DPOLYGONS -DMASKED -DMASK_POLYGON" "-DPICTURES -DPOLYGONS -DMASKED -DMASK_PICTURE"; do \
	  glslangValidator -l -S frag $$d .build/shaders/instance_runs.frag.glsl >/dev/null || { glslangValidator -l -S frag $$d .build/shaders/instance_runs.frag.glsl; exit 1; }; \
	done
	@glslangValidator -l -S frag -DMASKED .build/shaders/pictures.frag.glsl >/dev/null || { glslangValidator -l -S frag -DMASKED .build/shaders/pictures.frag.glsl; exit 1; }
	@glslangValidator -l -S frag -DCLIPS .build/shaders/copies_state.frag.glsl >/dev/null || { glslangValidator -l -S frag -DCLIPS .build/shaders/copies_state.frag.glsl; exit 1; }
	@echo "glslangValidator: $$(ls Shaders/*.glsl | wc -l) shaders valid (and 8 variants of item.frag.glsl, 5 of box.frag.glsl, 1 of pictures.frag.glsl, 6 of instance_runs.frag.glsl, 1 of copies_state.frag.glsl)"

# The example apps (Examples/: a package that depends on this one by path,
# as an app would) and the library products' documentation are built first:
# the tests run the examples (WavesCLITests.ExampleTests).
test: deps cluster-deps lottie-peers check-shaders examples docs
	$(SWIFT) build --build-tests
	$(SWIFT) build --product generate-manual
	$(SWIFT) test --skip-build

# make examples: Examples/.build/debug/render-waveform and gl-window (the
# Waves modules they use are built again there, in the examples' own build).
examples: deps
	$(SWIFT) build --package-path Examples

# make docs: DocC documentation of the library products, WavesKit and
# WavesGL (their catalogs: Sources/WavesKit/WavesKit.docc and
# Sources/WavesGL/WavesGL.docc), and of the modules they bring, as one
# static site in .build/docs/Waves; a broken link fails the build.
DOCS := .build/docs/Waves
DOC_TARGETS := WavesKit WavesGL WaveCore WaveEffects WaveAudio WaveImageIO WaveGL
docs: deps
	@mkdir -p $(dir $(DOCS))
	$(SWIFT) package --allow-writing-to-directory $(dir $(DOCS)) generate-documentation \
	  --enable-experimental-combined-documentation --warnings-as-errors $(addprefix --target ,$(DOC_TARGETS)) --output-path $(DOCS)
	@echo "docs: $(DOCS); to read them: python3 -m http.server -d $(DOCS) 8000, then http://localhost:8000/documentation/waveskit"

# make fuzz: libFuzzer targets for the readers of untrusted bytes (Fuzz/*.swift):
# dat (.dat peaks), json (peaks by content, then JSON), path (SVG path data,
# drawn), level (the live level stream), mp3 (MP3Decoder over libmad, then
# peaks made) and lottie (a Lottie file read, then drawn). swiftc -sanitize=fuzzer,address
# compiles the readers' own sources into each target, over an instrumented
# WaveCore library (nothing copied); each target starts from the corpus
# Fuzz/seeds.sh writes and runs FUZZ_SECONDS. Everything lands in .build/fuzz:
# corpora grow in corpus/<target>, a crash is saved as crashes/<target>-crash-*
# and fails the run (every one found so far is a file in Tests/FuzzCrashes,
# fed to its reader by FuzzCrashTests). FUZZ_TARGETS picks some.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= dat json path level mp3 lottie
FUZZ      := .build/fuzz
FUZZ_SWIFTC := swiftc -swift-version 5 -package-name waves -O -g -parse-as-library -sanitize=fuzzer,address -use-ld=lld
WAVECORE_SOURCES  := $(shell find Sources/WaveCore -name '*.swift' | sort)
WAVEAUDIO_SOURCES := $(wildcard Sources/WaveAudio/*.swift)
# The system-library modules WaveAudio's sources import (libsndfile, PortAudio, libmad).
WAVEAUDIO_INCLUDES := -I Sources/CSndfile -I Sources/CPortAudio -I Sources/CMad

$(FUZZ)/include/CPixelFill/module.modulemap: Sources/CPixelFill/include/pixel_fill.h
	@mkdir -p $(@D)
	printf 'module CPixelFill {\n    header "%s"\n    export *\n}\n' "$(CURDIR)/$<" > $@

$(FUZZ)/pixel_fill.o: Sources/CPixelFill/pixel_fill.c Sources/CPixelFill/include/pixel_fill.h
	@mkdir -p $(@D)
	clang -O2 -ISources/CPixelFill/include -c $< -o $@

$(FUZZ)/include/CPolygonBooleans/module.modulemap: Sources/CPolygonBooleans/include/polygon_booleans.h
	@mkdir -p $(@D)
	printf 'module CPolygonBooleans {\n    header "%s"\n    export *\n}\n' "$(CURDIR)/$<" > $@

$(FUZZ)/polygon_booleans.o: Sources/CPolygonBooleans/polygon_booleans.cpp Sources/CPolygonBooleans/include/polygon_booleans.h
	@mkdir -p $(@D)
	clang++ -O2 -ISources/CPolygonBooleans/include -c $< -o $@

$(FUZZ)/libWaveCore.a: $(WAVECORE_SOURCES) $(FUZZ)/include/CPixelFill/module.modulemap $(FUZZ)/include/CPolygonBooleans/module.modulemap \
	  $(FUZZ)/polygon_booleans.o
	cd $(FUZZ) && $(FUZZ_SWIFTC) -module-name WaveCore -emit-library -static -emit-module -I include \
	  $(addprefix $(CURDIR)/,$(WAVECORE_SOURCES)) -o libWaveCore.a

# WaveCore's C pieces: wmemset for pixel runs, Clipper's polygon booleans (Debian's libpolyclipping, C++).
FUZZ_LINK := -I $(FUZZ) -I $(FUZZ)/include $(FUZZ)/libWaveCore.a $(FUZZ)/pixel_fill.o $(FUZZ)/polygon_booleans.o -lpolyclipping -lstdc++
WAVEIMAGEIO_SOURCES := $(wildcard Sources/WaveImageIO/*.swift)
WAVELOTTIE_SOURCES  := $(wildcard Sources/WaveLottie/*.swift)

$(FUZZ)/libWaveImageIO.a: $(WAVEIMAGEIO_SOURCES) $(FUZZ)/libWaveCore.a
	cd $(FUZZ) && $(FUZZ_SWIFTC) -module-name WaveImageIO -emit-library -static -emit-module -I . -I include -I $(CURDIR)/Sources/CPNG \
	  $(addprefix $(CURDIR)/,$(WAVEIMAGEIO_SOURCES)) -o libWaveImageIO.a
$(FUZZ)/fuzz-dat: Fuzz/DatPeaksFuzz.swift Fuzz/PeaksCheck.swift $(WAVEAUDIO_SOURCES) $(FUZZ)/libWaveCore.a $(FUZZ)/pixel_fill.o
	$(FUZZ_SWIFTC) -module-name WaveAudio $(WAVEAUDIO_INCLUDES) $(WAVEAUDIO_SOURCES) $(filter Fuzz/%,$^) $(FUZZ_LINK) -o $@
$(FUZZ)/fuzz-json: Fuzz/JSONPeaksFuzz.swift Fuzz/PeaksCheck.swift $(WAVEAUDIO_SOURCES) $(FUZZ)/libWaveCore.a $(FUZZ)/pixel_fill.o
	$(FUZZ_SWIFTC) -module-name WaveAudio $(WAVEAUDIO_INCLUDES) $(WAVEAUDIO_SOURCES) $(filter Fuzz/%,$^) $(FUZZ_LINK) -o $@
$(FUZZ)/fuzz-level: Fuzz/LevelStreamFuzz.swift $(WAVEAUDIO_SOURCES) $(FUZZ)/libWaveCore.a $(FUZZ)/pixel_fill.o
	$(FUZZ_SWIFTC) -module-name WaveAudio $(WAVEAUDIO_INCLUDES) $(WAVEAUDIO_SOURCES) $(filter Fuzz/%,$^) $(FUZZ_LINK) -o $@
$(FUZZ)/fuzz-mp3: Fuzz/MP3DecoderFuzz.swift $(WAVEAUDIO_SOURCES) $(FUZZ)/libWaveCore.a $(FUZZ)/pixel_fill.o
	$(FUZZ_SWIFTC) -module-name WaveAudio $(WAVEAUDIO_INCLUDES) $(WAVEAUDIO_SOURCES) $(filter Fuzz/%,$^) $(FUZZ_LINK) -o $@
$(FUZZ)/fuzz-path: Fuzz/PathDataFuzz.swift Sources/WaveEffects/PathData.swift Sources/WaveEffects/Outline.swift $(FUZZ)/libWaveCore.a $(FUZZ)/pixel_fill.o
	$(FUZZ_SWIFTC) -module-name WaveEffects $(filter %.swift,$^) $(FUZZ_LINK) -o $@

$(FUZZ)/fuzz-lottie: Fuzz/LottieFuzz.swift $(WAVELOTTIE_SOURCES) $(FUZZ)/libWaveImageIO.a $(FUZZ)/libWaveCore.a $(FUZZ)/pixel_fill.o
	$(FUZZ_SWIFTC) -module-name WaveLottie -I Sources/CPNG $(WAVELOTTIE_SOURCES) Fuzz/LottieFuzz.swift $(FUZZ)/libWaveImageIO.a $(FUZZ_LINK) -lpng16 -o $@

$(FUZZ)/seeds/.done: Fuzz/seeds.sh
	rm -rf $(FUZZ)/seeds && Fuzz/seeds.sh $(FUZZ)/seeds && touch $@

fuzz-build: deps $(addprefix $(FUZZ)/fuzz-,$(FUZZ_TARGETS)) $(FUZZ)/seeds/.done

# Each target in turn, all of them even after a crash; fails if any crashed.
# The Swift runtime's backtracer is off (libFuzzer reports, and saves the input).
fuzz: fuzz-build
	@mkdir -p $(FUZZ)/crashes; failed=; \
	for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ)/corpus/$$t; \
	  dict=; [ -f $(FUZZ)/seeds/$$t.dict ] && dict=-dict=$(FUZZ)/seeds/$$t.dict; \
	  echo "fuzz-$$t: $(FUZZ_SECONDS) s"; \
	  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 $(FUZZ)/fuzz-$$t $$dict -max_total_time=$(FUZZ_SECONDS) \
	    -print_final_stats=1 -max_len=4096 -rss_limit_mb=2048 -malloc_limit_mb=256 -artifact_prefix=$(FUZZ)/crashes/$$t- \
	    $(FUZZ)/corpus/$$t $(FUZZ)/seeds/$$t > $(FUZZ)/fuzz-$$t.log 2>&1 || failed="$$failed $$t"; \
	  grep -E '^(stat::number_of_executed_units|stat::new_units_added|Done)|^#[0-9]+ *DONE' $(FUZZ)/fuzz-$$t.log | sed "s/^/  /"; \
	done; \
	if [ -n "$$failed" ]; then \
	  echo "fuzz: crashed:$$failed (logs: $(FUZZ)/fuzz-<target>.log, inputs: $(FUZZ)/crashes/)"; exit 1; \
	fi; echo "fuzz: $(FUZZ_TARGETS): no crash in $(FUZZ_SECONDS) s each"

# The default sweep, headless, from a release build: bench/results.json,
# bench/results.csv and bench/chart.svg.
bench: release
	mkdir -p bench
	$(RELEASE) bench --headless --json bench/results.json --csv bench/results.csv --chart bench/chart.svg

# A bare NVIDIA machine's kit (../shared/GPU.md): the release binary with the
# Swift standard library linked statically, stripped, in .gpu/ (git-ignored)
# with the glvnd libraries (.gpu/gl, unpacked into / there) and the other
# shared libraries it lacks (.gpu/debs, unpacked aside). Built in its own
# scratch folder so the ordinary release build is not rebuilt back and forth.
# Idempotent: packages already downloaded are not fetched again.
GPU_GL_DEBS := libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2
GPU_DEBS    := libglfw3 libpng16-16 libx11-6 libx11-data libxcb1 libxau6 libxdmcp6 libbsd0 libmd0 \
	       libsndfile1 libflac12 libmp3lame0 libmpg123-0 libogg0 libopus0 libvorbis0a libvorbisenc2 \
	       libmad0 libgd3 libavif15 libheif1 libtiff6 libwebp7 libxpm4 libjpeg62-turbo libfontconfig1 libfreetype6 \
	       libexpat1 libbrotli1 libzstd1 liblzma5 liblerc4 libjbig0 libdeflate0 libx265-199 libde265-0 libdav1d6 \
	       libaom3 libgav1-1 librav1e0 libsvtav1enc1 libyuv0 libnuma1 libabsl20220623
GPU_APT     := -oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64

gpu-bundle: deps
	mkdir -p .gpu/gl .gpu/debs /tmp/amd64/partial
	@fetch() { dir=$$1; shift; missing=; \
	  for p in "$$@"; do ls $$dir/$${p}_*.deb >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	  [ -z "$$missing" ] && return 0; \
	  apt-get $(GPU_APT) update -qq || return 1; \
	  echo "downloading into $$dir:$$missing"; (cd $$dir && apt-get $(GPU_APT) download $$missing); }; \
	fetch .gpu/gl $(GPU_GL_DEBS) && fetch .gpu/debs $(GPU_DEBS)
	$(SWIFT) build -c release --static-swift-stdlib --product waves --scratch-path .build-gpu
	cp .build-gpu/release/waves .gpu/waves && strip .gpu/waves
	@echo "gpu bundle: .gpu/waves ($$(du -h .gpu/waves | cut -f1)), $$(ls .gpu/gl/*.deb .gpu/debs/*.deb | wc -l) packages; run it as the README says (Running on an NVIDIA GPU)"

clean:
	rm -rf .build .build-gpu .build-bench test-artifacts bench .gpu Examples/.build

# Without deps: a user without root installs into PREFIX=$HOME/.local once the build packages are there.
install:
	$(SWIFT) build -c $(CONFIG) --product waves
	$(SWIFT) build -c $(CONFIG) --product generate-manual
	$(MAKE) install-files PREFIX=$(PREFIX) CONFIG=$(CONFIG)

# The copying half of install, for binaries already built (the tests use it).
# AUDIOWAVEFORM_LINK=1 also links bin/audiowaveform to waves, which then runs
# as audiowaveform 1.10.3 (`waves audiowaveform`); off by default.
install-files:
	@mkdir -p .build/man
	.build/$(CONFIG)/generate-manual .build/$(CONFIG)/waves --output-directory .build/man
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/waves \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 755 .build/$(CONFIG)/waves $(DESTDIR)$(PREFIX)/bin/waves
	@if [ "$(AUDIOWAVEFORM_LINK)" = 1 ]; then ln -sf waves $(DESTDIR)$(PREFIX)/bin/audiowaveform; \
	  echo "linked $(DESTDIR)$(PREFIX)/bin/audiowaveform -> waves (waves audiowaveform)"; fi
	install -m 644 .build/man/waves.1 $(DESTDIR)$(PREFIX)/share/man/man1/waves.1
	echo "$(COMMIT)" > $(DESTDIR)$(PREFIX)/share/waves/commit
	.build/$(CONFIG)/waves --generate-completion-script bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/waves
	.build/$(CONFIG)/waves --generate-completion-script zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_waves
	.build/$(CONFIG)/waves --generate-completion-script fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/waves.fish
	@echo "installed $(DESTDIR)$(PREFIX)/bin/waves (commit $(COMMIT)); man waves; completions for bash, zsh and fish"

uninstall:
	@if [ "$$(readlink $(DESTDIR)$(PREFIX)/bin/audiowaveform)" = waves ]; then rm -f $(DESTDIR)$(PREFIX)/bin/audiowaveform; fi
	rm -f $(DESTDIR)$(PREFIX)/bin/waves $(DESTDIR)$(PREFIX)/share/man/man1/waves.1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions/waves $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_waves \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/waves.fish
	rm -rf $(DESTDIR)$(PREFIX)/share/waves
