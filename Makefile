# Waves: `make demo` and `make test` are all a fresh Debian 12 machine with
SHELL := /bin/bash
# Swift needs; each installs the system packages it is missing first.
SWIFT   ?= swift
RELEASE := .build/release/waves
DEBUG   := .build/debug/waves

# What building, headless GL (Mesa's EGL and llvmpipe), the window tests
# (Xvfb), shader validation and the raster preset's cairo peer need from Debian.
PACKAGES := pkg-config libpng-dev libgl-dev libegl-dev libglfw3-dev libstb-dev libsndfile1-dev \
	          libegl-mesa0 libgl1-mesa-dri xvfb xauth glslang-tools ffmpeg librsvg2-bin libcairo2

.PHONY: deps build release demo test shaders check-shaders bench gpu-bundle clean install install-files uninstall

# make install: the binary, its man page (generated from the command
# definitions by swift-argument-parser's generate-manual), bash, zsh and
# fish completions, and the git commit it was built from (waves --version).
PREFIX ?= /usr/local
CONFIG ?= release
COMMIT := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD 2>/dev/null || echo -modified)

deps:
	@missing=$$(for p in $(PACKAGES); do \
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

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product waves

# Opens the side-by-side window where there is a display; renders the same
# comparison headless to a PNG where there is none.
demo: release
	$(RELEASE) demo

# Regenerates Sources/WaveGL/EmbeddedShaders.swift from Shaders/*.glsl.
shaders:
	./Scripts/embed-shaders.sh > Sources/WaveGL/EmbeddedShaders.swift

check-shaders: deps
	@for f in Shaders/*.glsl; do \
	  stage=$$(case $$f in *.vert.glsl) echo vert;; *.frag.glsl) echo frag;; esac); \
	  glslangValidator -S $$stage $$f >/dev/null || { glslangValidator -S $$stage $$f; exit 1; }; \
	done
	@# layer.frag.glsl is specialised per batch by defines: check every variant's branches too.
	@for d in "-DCONTENT_STRIP" "-DHAS_SPLIT -DFILL0_GRADIENT -DFILL1_GRADIENT -DOVER_BACKGROUND" \
	          "-DCONTENT_STRIP -DHAS_SPLIT -DFILL1_GRADIENT"; do \
	  glslangValidator -l -S frag $$d Shaders/layer.frag.glsl >/dev/null || { glslangValidator -l -S frag $$d Shaders/layer.frag.glsl; exit 1; }; \
	done
	@# item.frag.glsl (the layer tree's items): each source, with and without a gradient and masks.
	@for d in "-DPICTURE_COVERAGE -DGRADIENT -DMASKED" "-DPICTURE_RGBA -DMASKED" "-DGRADIENT -DAS_MASK" "-DPICTURE_COVERAGE -DAS_MASK"; do \
	  glslangValidator -l -S frag $$d Shaders/item.frag.glsl >/dev/null || { glslangValidator -l -S frag $$d Shaders/item.frag.glsl; exit 1; }; \
	done
	@# box.frag.glsl: masked, and the lattice draw (general and axis-aligned) plain and masked.
	@for d in "-DMASKED" "-DLATTICE" "-DLATTICE -DMASKED" "-DLATTICE -DAXIS_ALIGNED" "-DLATTICE -DAXIS_ALIGNED -DMASKED"; do \
	  glslangValidator -l -S frag $$d Shaders/box.frag.glsl >/dev/null || { glslangValidator -l -S frag $$d Shaders/box.frag.glsl; exit 1; }; \
	done
	@echo "glslangValidator: $$(ls Shaders/*.glsl | wc -l) shaders valid (and 3 variants of layer.frag.glsl, 4 of item.frag.glsl, 5 of box.frag.glsl)"

test: deps check-shaders
	$(SWIFT) build --build-tests
	$(SWIFT) build --product generate-manual
	$(SWIFT) test --skip-build

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
	       libsndfile1 libflac12 libmp3lame0 libmpg123-0 libogg0 libopus0 libvorbis0a libvorbisenc2
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
	rm -rf .build .build-gpu .build-bench test-artifacts bench .gpu

# Without deps: a user without root installs into PREFIX=$HOME/.local once the build packages are there.
install:
	$(SWIFT) build -c $(CONFIG) --product waves
	$(SWIFT) build -c $(CONFIG) --product generate-manual
	$(MAKE) install-files PREFIX=$(PREFIX) CONFIG=$(CONFIG)

# The copying half of install, for binaries already built (the tests use it).
install-files:
	@mkdir -p .build/man
	.build/$(CONFIG)/generate-manual .build/$(CONFIG)/waves --output-directory .build/man
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/waves \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 755 .build/$(CONFIG)/waves $(DESTDIR)$(PREFIX)/bin/waves
	install -m 644 .build/man/waves.1 $(DESTDIR)$(PREFIX)/share/man/man1/waves.1
	echo "$(COMMIT)" > $(DESTDIR)$(PREFIX)/share/waves/commit
	.build/$(CONFIG)/waves --generate-completion-script bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/waves
	.build/$(CONFIG)/waves --generate-completion-script zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_waves
	.build/$(CONFIG)/waves --generate-completion-script fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/waves.fish
	@echo "installed $(DESTDIR)$(PREFIX)/bin/waves (commit $(COMMIT)); man waves; completions for bash, zsh and fish"

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/waves $(DESTDIR)$(PREFIX)/share/man/man1/waves.1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions/waves $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_waves \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/waves.fish
	rm -rf $(DESTDIR)$(PREFIX)/share/waves
