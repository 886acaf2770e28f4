# Waves: `make demo` and `make test` are all a fresh Debian 12 machine with
SHELL := /bin/bash
# Swift needs; each installs the system packages it is missing first.
SWIFT   ?= swift
RELEASE := .build/release/waves
DEBUG   := .build/debug/waves

# What building, headless GL (Mesa's EGL and llvmpipe), the window tests
# (Xvfb) and shader validation need from Debian.
PACKAGES := pkg-config libpng-dev libgl-dev libegl-dev libglfw3-dev libstb-dev \
	          libegl-mesa0 libgl1-mesa-dri xvfb xauth glslang-tools

.PHONY: deps build release demo test shaders check-shaders bench gpu-bundle clean

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
	done; echo "glslangValidator: $$(ls Shaders/*.glsl | wc -l) shaders valid"

test: deps check-shaders
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

clean:
	rm -rf .build test-artifacts bench .gpu
