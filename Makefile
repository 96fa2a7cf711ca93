# OpenBench and other tools build an engine with `make EXE=NAME`: the `engine` profile (fat LTO,
# one codegen unit: the fastest search, a longer build) optimised with a profile of its own
# search where rustup's llvm-tools are there (`scripts/pgo_build.sh`; PGO=0 leaves the profile
# out, PGO=1 requires it), copied to NAME (a path, relative to this directory or absolute).
# `make` alone builds ./searchlab. `PROFILE=release` builds with the profile of
# `cargo build --release` instead (the tests use it, to reuse their build).
EXE ?= searchlab
PROFILE ?= engine
PGO ?= auto

.PHONY: all clean

all:
ifeq ($(PROFILE),engine)
	sh scripts/pgo_build.sh '$(EXE)' '$(PGO)'
else
	cargo build --profile $(PROFILE) --locked
	cp target/$(PROFILE)/searchlab$(if $(filter %.exe,$(EXE)),.exe,) $(EXE)
endif

clean:
	cargo clean
