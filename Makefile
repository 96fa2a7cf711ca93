# OpenBench and other tools build an engine with `make EXE=NAME`: the release binary, copied
# to NAME (a path, relative to this directory or absolute). `make` alone builds ./searchlab.
EXE ?= searchlab

.PHONY: all clean

all:
	cargo build --release --locked
	cp target/release/searchlab$(if $(filter %.exe,$(EXE)),.exe,) $(EXE)

clean:
	cargo clean
