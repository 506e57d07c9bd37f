#!/usr/bin/env bash
# Installs what imglab needs on Debian/Ubuntu when it is missing; elsewhere says what to install.
# Sourced by scripts/lab and scripts/test.
set -euo pipefail

IMGLAB_DEB_PACKAGES="libpng-dev libjpeg-dev libgif-dev libtiff-dev libdeflate-dev zlib1g-dev pkg-config python3"

imglab_missing_packages() {
  local missing=""
  for p in $IMGLAB_DEB_PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
  done
  echo "$missing"
}

imglab_bootstrap() {
  if command -v dpkg-query >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    local missing
    missing=$(imglab_missing_packages)
    if [ -n "$missing" ]; then
      echo "imglab: installing$missing" >&2
      local sudo=""
      [ "$(id -u)" -ne 0 ] && sudo="sudo"
      $sudo apt-get update -qq >&2
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >&2
    fi
  else
    echo "imglab: not a Debian/Ubuntu system; make sure the development files of libpng, libjpeg(-turbo)," >&2
    echo "        giflib, libtiff, libdeflate and zlib are installed (e.g. 'brew install libpng jpeg-turbo giflib libtiff libdeflate')." >&2
  fi
  if ! command -v swift >/dev/null 2>&1; then
    for d in /opt/swift/usr/bin /usr/share/swift/usr/bin; do
      [ -x "$d/swift" ] && export PATH="$d:$PATH" && break
    done
  fi
  if ! command -v swift >/dev/null 2>&1; then
    echo "imglab: Swift 6 is not installed. Install a Swift 6 toolchain for Linux from swift.org" >&2
    echo "        (or 'apt-get install swiftlang' on Ubuntu 24.10+/Debian 13+), then run this again." >&2
    exit 1
  fi
}
