#!/usr/bin/env bash
# Installs Debian's headless-capable Chromium and its WebDriver (chromium-driver) when they are missing, for the
# checkout payment-sheet browser tests (Tests/CheckoutTests/SheetBrowserTests.swift). Non-interactive; uses sudo
# when not run as root. Also installs axe-core (the copy PyPI's axe-playwright-python ships, without its Playwright
# dependency) for the sheet's accessibility test. Prints the paths found.
set -euo pipefail

find_browser() { command -v chromium || command -v chromium-browser || true; }
find_driver() { command -v chromedriver || { [ -x /usr/lib/chromium/chromedriver ] && echo /usr/lib/chromium/chromedriver; } || true; }

if [ -z "$(find_browser)" ] || [ -z "$(find_driver)" ]; then
    echo "==> installing chromium and chromium-driver"
    # shellcheck source=scripts/apt-install.sh
    . "$(dirname "$0")/apt-install.sh"
    apt_install chromium chromium-driver fonts-dejavu-core
fi

browser="$(find_browser)"
driver="$(find_driver)"
if [ -z "$browser" ] || [ -z "$driver" ]; then
    echo "error: chromium or chromedriver is still missing after installation" >&2
    exit 1
fi
echo "chromium: $browser ($("$browser" --version 2>/dev/null || echo unknown version))"
echo "chromedriver: $driver ($("$driver" --version 2>/dev/null || echo unknown version))"

axe_path() {
    python3 -c "import importlib.util, os; spec = importlib.util.find_spec('axe_playwright_python'); \
print(os.path.join(os.path.dirname(spec.origin), 'axe.min.js') if spec else '')" 2>/dev/null || true
}
if [ -z "$(axe_path)" ]; then
    echo "==> installing axe-core (axe-playwright-python from PyPI, without Playwright)"
    # shellcheck source=scripts/pip-install.sh
    . "$(dirname "$0")/pip-install.sh"
    pip_install --no-deps "axe-playwright-python==0.1.8"
fi
axe="$(axe_path)"
if [ -z "$axe" ] || [ ! -f "$axe" ]; then
    echo "error: axe-core (axe.min.js) is still missing after installation" >&2
    exit 1
fi
echo "axe-core: $axe"
