# OpenBench and other tools build an engine with `make EXE=NAME`: the `engine` profile (fat LTO,
# one codegen unit: the fastest search, a longer build), copied to NAME (a path, relative to
# this directory or absolute). `make` alone builds ./searchlab. `PROFILE=release` builds with
# the profile of `cargo build --release` instead (the tests use it, to reuse their build).
EXE ?= searchlab
PROFILE ?= engine

.PHONY: all clean

all:
	cargo build --profile $(PROFILE) --locked
	cp target/$(PROFILE)/searchlab$(if $(filter %.exe,$(EXE)),.exe,) $(EXE)

clean:
	cargo clean
