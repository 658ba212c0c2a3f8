# Sourced by the install scripts: pip_install REQUIREMENT... installs PyPI packages for the tests, into the user's
# site when not root, past Debian's "externally managed environment" refusal (PEP 668) when pip gives it.
pip_install() {
    local user=()
    # Not root and not in a virtual environment (where pip refuses --user): the user's own site.
    if [ "$(id -u)" -ne 0 ] && python3 -c 'import sys; sys.exit(sys.prefix != sys.base_prefix)'; then user=(--user); fi
    python3 -m pip install --quiet "${user[@]}" "$@" 2>/dev/null \
        || python3 -m pip install --quiet "${user[@]}" --break-system-packages "$@"
}
