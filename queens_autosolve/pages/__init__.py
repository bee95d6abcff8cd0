"""The pages the tool serves on loopback: the practice copy of the Queens game (`practice`), the
two-player Queens Game page (`two_player`), their HTTP stack (`http`), and the Xvfb + Chromium
driver that shows them for `demo` and the live tests (`browser`), and the headless Wayland
desktops `demo --desktop sway|gnome` starts (`sway`, `mutter`)."""
