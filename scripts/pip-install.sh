# Sourced by the install scripts: pip_install REQUIREMENT... installs PyPI packages for the tests, into the user's
# site when not root, past Debian's "externally managed environment" refusal (PEP 668) when pip gives it.
pip_install() {
    local user=()
    # Not root and not in a virtual environment (where pip refuses --user): the user's own site.
    if [ "$(id -u)" -ne 0 ] && python3 -c 'import sys; sys.exit(sys.prefix != sys.base_prefix)'; then user=(--user); fi
    python3 -m pip install --quiet "${user[@]}" "$@" 2>/dev/null \
        || python3 -m pip install --quiet "${user[@]}" --break-system-packages "$@"
}

# PyPI tools a user install puts in ~/.local/bin (schemathesis's `st`), not on PATH by default: put there for whoever
# sources this file (the install scripts, and the test command for the tests that run them).
user_bin="$(python3 -m site --user-base 2>/dev/null || true)/bin"
case ":$PATH:" in *":$user_bin:"*) ;; *) export PATH="$user_bin:$PATH" ;; esac
