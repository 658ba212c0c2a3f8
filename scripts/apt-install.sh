# Sourced by the install scripts: apt_install PACKAGE... installs Debian packages without a question (tzdata's time
# zone included), through sudo when not root (sudo keeps no environment by default, so the setting goes through env).
apt_install() {
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        if ! command -v sudo >/dev/null 2>&1; then
            echo "error: installing $* needs root: run this script as root, or install sudo" >&2
            exit 1
        fi
        sudo=(sudo)
        # Without a terminal to ask for a password, sudo must not wait for one.
        [ -t 0 ] || sudo=(sudo -n)
    fi
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"
}
