#!/bin/sh
# Make sure the system packages the live tests and `make demo` need are installed: Xvfb (virtual
# display), Chromium and Firefox (two real browsers), openbox (a real window manager), xdotool
# and x11-utils (xmessage, xdpyinfo); i3lock (a real screen locker: `watch` waits while it holds
# the pointer, tests/test_e2e_watch.py); zsh, fish and bash-completion (the completion scripts'
# tests); sway, grim and
# xwayland (the headless Wayland desktop of `demo --desktop sway` and tests/test_e2e_sway.py; xhost
# from x11-xserver-utils); for the GNOME desktop a headless mutter with its D-Bus bus (dbus),
# PipeWire and WirePlumber, and GStreamer's pipewiresrc and videoconvert (the frames of its screen
# cast: capture/gnome.py); Tk for the Python the tests run on (tests/viewer.py, a window that is
# not a browser: $PYTHON, the venv's, which make passes; Debian's own Python has it from
# python3-tk). Installs them with apt-get when running as root; otherwise prints the command to
# run (in CI a missing package is an error).
set -e
missing=""
[ -x "${PYTHON:-}" ] || PYTHON=python3
"$PYTHON" -c 'import tkinter' >/dev/null 2>&1 || missing="$missing python3-tk"
command -v Xvfb >/dev/null 2>&1 || missing="$missing xvfb"
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 \
    || command -v google-chrome >/dev/null 2>&1 || missing="$missing chromium"
command -v firefox-esr >/dev/null 2>&1 || command -v firefox >/dev/null 2>&1 || missing="$missing firefox-esr"
command -v openbox >/dev/null 2>&1 || missing="$missing openbox"
command -v xdotool >/dev/null 2>&1 || missing="$missing xdotool"
command -v xmessage >/dev/null 2>&1 || missing="$missing x11-utils"
command -v zsh >/dev/null 2>&1 || missing="$missing zsh"
command -v fish >/dev/null 2>&1 || missing="$missing fish"
[ -f /usr/share/bash-completion/bash_completion ] || missing="$missing bash-completion"
command -v sway >/dev/null 2>&1 || missing="$missing sway"
command -v grim >/dev/null 2>&1 || missing="$missing grim"
command -v Xwayland >/dev/null 2>&1 || missing="$missing xwayland"
command -v xhost >/dev/null 2>&1 || missing="$missing x11-xserver-utils"
command -v i3lock >/dev/null 2>&1 || missing="$missing i3lock"
command -v mutter >/dev/null 2>&1 || missing="$missing mutter"
command -v dbus-daemon >/dev/null 2>&1 || missing="$missing dbus"
command -v pipewire >/dev/null 2>&1 || missing="$missing pipewire"
command -v wireplumber >/dev/null 2>&1 || missing="$missing wireplumber"
command -v gst-inspect-1.0 >/dev/null 2>&1 || missing="$missing gstreamer1.0-tools"
gst-inspect-1.0 pipewiresrc >/dev/null 2>&1 || missing="$missing gstreamer1.0-pipewire"
gst-inspect-1.0 videoconvert >/dev/null 2>&1 || missing="$missing gstreamer1.0-plugins-base"
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
