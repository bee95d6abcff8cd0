#!/bin/sh
# Remake every puzzle file in games/ byte for byte (see README.md). Run from the project root:
#   sh games/regenerate.sh
set -eu
GEN="${GEN:-.venv/bin/queens-autosolve generate}"
for n in 5 6 7 8 9 10 11 12 13 14 15 16; do
    $GEN --size "$n" --stars 1 --count 3 --seed 1 --out "games/queens-$(printf %02d "$n").txt"
done
$GEN --size 10 --stars 2 --count 2 --seed 1 --out games/stars2-10.txt
$GEN --size 11 --stars 2 --count 2 --seed 1 --out games/stars2-11.txt
$GEN --size 14 --stars 3 --count 2 --seed 1 --out games/stars3-14.txt
$GEN --size 17 --stars 4 --hard --count 20 --candidates 40 --seed 1 --timeout 0 --out games/stars4-17-hard.txt
$GEN --size 17 --stars 4 --hard --harden 200 --count 10 --candidates 16 --seed 1001 --timeout 0 --out games/stars4-17-harder.txt
$GEN --size 21 --stars 5 --hard --harden 150 --count 4 --candidates 6 --seed 2001 --timeout 0 --out games/stars5-21-hard.txt
# Hard for CaDiCaL rather than for us: hardened and chosen by its conflicts (the optional extra `bench`).
.venv/bin/python benchmarks/sat_hard.py --size 17 --stars 4 --harden 200 --seeds 3001-3016 --keep 10 --out games/stars4-17-sathard.txt
