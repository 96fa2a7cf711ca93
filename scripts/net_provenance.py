#!/usr/bin/env python3
"""Write the shipped network's provenance beside it.

    python3 scripts/net_provenance.py NET TRAIN_JSON DATA_JSON... [--note TEXT] [--command CMD]...

Copies NET to src/engine/nnue/net/searchlab.nnue, writes its checksum to checksum.txt and
PROVENANCE.md: the data (each datagen provenance file: games, positions kept and left out,
nodes per move, the configuration and evaluation that played, seed, commit), the training
(train.json: settings, epochs, losses, seed, commit) and the commands that re-create it.
"""
import argparse
import json
import shutil
from pathlib import Path

NET_DIR = Path("src/engine/nnue/net")


def fnv1a(data: bytes) -> str:
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("net")
    ap.add_argument("train_json")
    ap.add_argument("data_json", nargs="+")
    ap.add_argument("--note", default="")
    ap.add_argument("--command", action="append", default=[])
    args = ap.parse_args()
    net = Path(args.net).read_bytes()
    checksum = fnv1a(net)
    log = json.loads(Path(args.train_json).read_text())
    if log.get("net_checksum") != checksum:
        raise SystemExit(f"{args.net} is {checksum}, the log names {log.get('net_checksum')}")
    NET_DIR.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(args.net, NET_DIR / "searchlab.nnue")
    (NET_DIR / "checksum.txt").write_text(checksum + "\n")
    s = log["settings"]
    last = log["epochs"][-1]
    lines = [
        "# The shipped network",
        "",
        f"`searchlab.nnue`: (768 → 128) × 2 → 1, SCReLU, {len(net):,} bytes, "
        f"checksum (FNV-1a 64) **{checksum}**.",
        "",
    ]
    if args.note:
        lines += [args.note, ""]
    lines += ["## Data", ""]
    for path in args.data_json:
        d = json.loads(Path(path).read_text())
        p = d["progress"]
        scored = p["positions"] + p["in_check"] + p["tactical"] + p["mate"]
        lines += [
            f"- `{Path(path).name[:-5]}`: {p['games_done']:,} self-play games of `{d['spec']}` with the "
            f"`{d['config']['eval']}` evaluation at {d['nodes']:,} nodes a move, {d['random_plies']} random "
            f"plies after the {d['opening_count']} openings of `{d['openings']}`, seed {d['seed']}, "
            f"commit `{d['commit']}`; White {p['white_wins']:,}-{p['draws']:,}-{p['white_losses']:,}; "
            f"{p['positions']:,} positions kept of {scored:,} scored ({p['in_check']:,} in check, "
            f"{p['tactical']:,} with a capture or promotion best, {p['mate']:,} with a mate score left out).",
        ]
    lines += [
        "",
        "## Training",
        "",
        f"`searchlab train` at commit `{log['commit']}`: {log['train_positions']:,} training and "
        f"{log['validation_positions']:,} validation positions; {len(log['epochs'])} epochs, batch "
        f"{s['batch']:,}, AdamW lr {s['lr']} (× {s['lr_drop']} after {s['drop_at']:.0%} of the epochs), "
        f"weight decay {s['adamw']['decay']}, λ {s['shape']['lambda']}, scale {s['shape']['scale']:.0f}, "
        f"seed {s['seed']}. Last epoch: training loss {last['train_loss']:.6f}, validation loss "
        f"{last['validation_loss']:.6f}.",
        "",
        "| epoch | training loss | validation loss | lr |",
        "|---:|---:|---:|---:|",
    ]
    for e in log["epochs"]:
        lines.append(f"| {e['epoch']} | {e['train_loss']:.6f} | {e['validation_loss']:.6f} | {e['lr']} |")
    lines += ["", "Data files read (the data is not committed):", ""]
    for d in log["data"]:
        lines.append(f"- `{d['path']}`: {d['positions']:,} positions, checksum {d['checksum']}")
    if args.command:
        lines += ["", "## Commands that re-create it", "", "```sh"] + args.command + ["```"]
    (NET_DIR / "PROVENANCE.md").write_text("\n".join(lines) + "\n")
    print(f"{NET_DIR / 'searchlab.nnue'}: {checksum}")


if __name__ == "__main__":
    main()
