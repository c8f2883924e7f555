#!/usr/bin/env bash
# The fastest build of tumble: a profile-guided one.
#
#   scripts/pgo-build.sh             # builds target/pgo/release/tumble
#   scripts/pgo-build.sh --install   # and copies it to cargo's bin directory, as
#                                    # `cargo install --path .` would place it
#
# Three steps, each in its own build directory under target/pgo:
#   1. an instrumented build (rustc's -Cprofile-generate), which counts, as it runs, how
#      often each branch is taken and each function called;
#   2. that build solving a fixed set of generated boards of every game (the generator's
#      seeds, never a benchmark's boards), which writes the counts;
#   3. the release build again, with the merged counts (-Cprofile-use), so that the
#      compiler lays out and inlines the search's hot paths by how they really run.
# The binary it makes is target/pgo/release/tumble; it plays exactly as the plain build
# does (the same code, compiled differently), only faster.
#
# Needs `llvm-profdata` of the compiler's own LLVM: `rustup component add llvm-tools`
# (the script looks in the toolchain's sysroot; LLVM_PROFDATA overrides). RUSTFLAGS, when
# set, replaces the `target-cpu=native` of .cargo/config.toml, as in any cargo build.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
out="$root/target/pgo"
raw="$out/raw"
flags="${RUSTFLAGS:--C target-cpu=native}"

say() { echo "pgo-build: $*"; }
die() {
    echo "pgo-build: $*" >&2
    exit 2
}

install=
case "${1:-}" in
    "") ;;
    --install) install="${CARGO_HOME:-$HOME/.cargo}/bin" ;;
    *) die "unknown argument ${1}: the only option is --install" ;;
esac
[ $# -le 1 ] || die "one argument at most (--install)"

profdata="${LLVM_PROFDATA:-}"
if [ -z "$profdata" ]; then
    sysroot="$(rustc --print sysroot)"
    host="$(rustc -vV | sed -n 's/^host: //p')"
    profdata="$sysroot/lib/rustlib/$host/bin/llvm-profdata"
fi
[ -x "$profdata" ] || die "no llvm-profdata at $profdata: run \`rustup component add llvm-tools\` (or set LLVM_PROFDATA)"

say "1/3 the instrumented build (target/pgo/gen)"
rm -rf "$raw"
mkdir -p "$raw"
RUSTFLAGS="$flags -Cprofile-generate=$raw" CARGO_TARGET_DIR="$out/gen" \
    cargo build --release --quiet
gen="$out/gen/release/tumble"

say "2/3 the training run: generated boards of every game"
boards="$out/boards"
mkdir -p "$boards"
# set_of NAME FIRST LAST [gen options]: the generator's boards of seeds FIRST..LAST, one per
# line, in bench's `name|rows` form, in NAME.txt; the game is NAME unless an option says.
set_of() {
    local name=$1 first=$2 last=$3
    shift 3
    local game=(--game "$name")
    [[ " $* " == *" --game "* ]] && game=()
    LLVM_PROFILE_FILE="$raw/gen/%m.profraw" \
        "$gen" gen "${game[@]}" --seeds "$first..=$last" "$@" > "$boards/$name.txt"
}
# Every engine the dispatchers pick has its share: click boards of one word (Former, Figure,
# dust), four (SameGame 15×15) and eight (20×20); Flood-It boards of two to sixteen words
# of regions (14×14 to 30×30).
set_of former 1 30
set_of figure 1 8
set_of dust 1 6
set_of clickomania 1 4
set_of samegame 1 3
set_of samegame20 1 2 --game samegame --width 20 --height 20
set_of floodit 1 30 --width 14 --height 14 --colours 6
set_of floodit19 1 20 --game floodit --width 19 --height 19 --colours 6
set_of floodit24 1 4 --game floodit --width 24 --height 24 --colours 6
set_of floodit30 1 2 --game floodit --width 30 --height 30 --colours 6
# quiet PART bench-options: one training run, its counts in PART's directory.
quiet() {
    local part=$1
    shift
    LLVM_PROFILE_FILE="$raw/$part/%m.profraw" "$gen" bench --jobs 1 "$@" > /dev/null
}
quiet former --game former --time-limit 5 "$boards/former.txt"
quiet former --game former --no-proof --time-limit 1 "$boards/former.txt"
quiet other --game figure --time-limit 5 "$boards/figure.txt"
quiet other --game dust --time-limit 5 "$boards/dust.txt"
quiet other --game clickomania --time-limit 5 "$boards/clickomania.txt"
quiet other --game samegame --no-proof --time-limit 5 "$boards/samegame.txt"
quiet other --game samegame --no-proof --time-limit 3 "$boards/samegame20.txt"
quiet other --game floodit --time-limit 5 "$boards/floodit.txt"
quiet other --game floodit --start centre --time-limit 5 "$boards/floodit19.txt"
quiet other --game floodit --time-limit 5 "$boards/floodit24.txt"
quiet other --game floodit --time-limit 3 "$boards/floodit30.txt"
# Former's proof is the search players wait on most: its counts weigh ten times the others',
# so that the rest of the training does not make its paths look lukewarm.
"$profdata" merge -o "$out/former.profdata" "$raw/former"
"$profdata" merge -o "$out/other.profdata" "$raw/other"
"$profdata" merge -o "$out/merged.profdata" \
    --weighted-input=10,"$out/former.profdata" "$out/other.profdata"

say "3/3 the release build with the profile (target/pgo/release)"
# -pgso=false: code the training never ran is still optimised for speed, not shrunk for
# size, so that a board size or game the training missed is not slowed down.
RUSTFLAGS="$flags -Cprofile-use=$out/merged.profdata -Cllvm-args=-pgso=false" \
    CARGO_TARGET_DIR="$out" \
    cargo build --release --quiet
say "done: $out/release/tumble"
if [ -n "$install" ]; then
    mkdir -p "$install"
    # Copied beside and then renamed, so that a tumble running from there is not cut short.
    cp "$out/release/tumble" "$install/.tumble.pgo"
    mv -f "$install/.tumble.pgo" "$install/tumble"
    say "installed: $install/tumble"
fi
