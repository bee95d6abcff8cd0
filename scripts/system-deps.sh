#!/bin/sh
# Make sure Xvfb and Chromium are installed: the live pipeline tests and `make demo` need them.
# Installs them with apt-get when running as root; otherwise prints the command to run.
set -e
missing=""
command -v Xvfb >/dev/null 2>&1 || missing="$missing xvfb"
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 \
    || command -v google-chrome >/dev/null 2>&1 || missing="$missing chromium"
command -v xdotool >/dev/null 2>&1 || missing="$missing xdotool"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing system packages:$missing"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
elif [ -n "$CI" ]; then
    echo "missing system packages:$missing; run: sudo apt-get install -y$missing" >&2
    exit 1
else
    echo "note: missing system packages:$missing (live tests and the demo need them)." >&2
    echo "      install with: sudo apt-get update && sudo apt-get install -y$missing" >&2
fi
