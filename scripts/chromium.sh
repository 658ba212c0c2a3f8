#!/usr/bin/env bash
# Installs Debian's headless-capable Chromium and its WebDriver (chromium-driver) when they are missing, for the
# checkout payment-sheet browser tests (Tests/CheckoutTests/SheetBrowserTests.swift). Non-interactive; uses sudo
# when not run as root. Prints the paths found.
set -euo pipefail

find_browser() { command -v chromium || command -v chromium-browser || true; }
find_driver() { command -v chromedriver || { [ -x /usr/lib/chromium/chromedriver ] && echo /usr/lib/chromium/chromedriver; } || true; }

if [ -z "$(find_browser)" ] || [ -z "$(find_driver)" ]; then
    echo "==> installing chromium and chromium-driver"
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium chromium-driver \
        fonts-dejavu-core
fi

browser="$(find_browser)"
driver="$(find_driver)"
if [ -z "$browser" ] || [ -z "$driver" ]; then
    echo "error: chromium or chromedriver is still missing after installation" >&2
    exit 1
fi
echo "chromium: $browser ($("$browser" --version 2>/dev/null || echo unknown version))"
echo "chromedriver: $driver ($("$driver" --version 2>/dev/null || echo unknown version))"
