#!/usr/bin/env bash
# Installs what imglab needs on Debian/Ubuntu when it is missing; elsewhere says what to install.
# Sourced by scripts/lab and scripts/test (which also calls imglab_bootstrap_browser).
set -euo pipefail

# libwebp-dev, libheif-dev and libavif-dev: the WebP, HEIF/AVIF and AVIF-sequence headers; each library is loaded
# when a file of its format is read, and where one is missing imglab still builds and says which package to install.
IMGLAB_DEB_PACKAGES="libpng-dev libjpeg-dev libgif-dev libtiff-dev libdeflate-dev zlib1g-dev liblcms2-dev libwebp-dev libheif-dev libavif-dev pkg-config python3"

imglab_missing_packages() {  # the Debian packages named in $@ that are not installed
  local missing=""
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
  done
  echo "$missing"
}

imglab_apt_install() {  # apt-get install of the packages named in $@ (sudo when not root)
  echo "imglab: installing $*" >&2
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >&2
}

imglab_bootstrap() {
  if command -v dpkg-query >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    local missing
    missing=$(imglab_missing_packages $IMGLAB_DEB_PACKAGES)
    if [ -n "$missing" ]; then
      imglab_apt_install $missing
    fi
  else
    echo "imglab: not a Debian/Ubuntu system; make sure the development files of libpng, libjpeg(-turbo)," >&2
    echo "        giflib, libtiff, libdeflate, zlib, Little CMS 2 and libwebp are installed (e.g. 'brew install libpng jpeg-turbo giflib libtiff libdeflate little-cms2 webp')." >&2
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

# What the browser tests need (Tests/Browser/report_views.py, docs/testing.md): Debian's chromium and
# Playwright for Python, each installed only when missing, silently when present. An install that fails is
# reported and not fatal: the tests then skip with the reason, or fail under IMGLAB_CI=1.
imglab_bootstrap_browser() {
  local apt=0
  command -v dpkg-query >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1 && apt=1
  if [ -z "${IMGLAB_CHROMIUM:-}" ] && [ ! -x /usr/bin/chromium ]; then
    if [ "$apt" = 1 ]; then
      imglab_apt_install chromium || echo "imglab: could not install chromium; the browser tests need it" >&2
    else
      echo "imglab: the browser tests need Chromium (set IMGLAB_CHROMIUM to its executable)" >&2
    fi
  fi
  if ! python3 -c 'import playwright.sync_api' >/dev/null 2>&1; then
    if ! python3 -m pip --version >/dev/null 2>&1 && [ "$apt" = 1 ]; then
      imglab_apt_install python3-pip || true
    fi
    echo "imglab: installing playwright (python3 -m pip install playwright)" >&2
    # A Debian system Python refuses pip installs outside a virtual environment (PEP 668): then into
    # the user's site-packages.
    python3 -m pip install --quiet playwright >&2 \
      || python3 -m pip install --quiet --user --break-system-packages playwright >&2 \
      || echo "imglab: could not install playwright; the browser tests need it" >&2
  fi
}

# The resizers the league knows, whose example configs docs/configs/ holds (ExampleConfigTests run each):
# libvips' vipsthumbnail, ImageMagick and Pillow, each installed only when missing. An install that fails is
# reported and not fatal: those tests then skip with the reason, or fail under IMGLAB_CI=1. Also valgrind,
# whose DHAT counts the instructions and heap bytes of the cost check (benchmarks/cost/check.py).
imglab_bootstrap_peers() {
  if command -v dpkg-query >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    local missing=""
    command -v vipsthumbnail >/dev/null 2>&1 || missing="$missing libvips-tools"
    command -v convert-im6.q16 >/dev/null 2>&1 || command -v magick >/dev/null 2>&1 || missing="$missing imagemagick"
    command -v valgrind >/dev/null 2>&1 || missing="$missing valgrind"
    [ -z "$missing" ] || imglab_apt_install $missing || echo "imglab: could not install$missing" >&2
  fi
  if ! python3 -c 'import PIL' >/dev/null 2>&1; then
    echo "imglab: installing Pillow (python3 -m pip install pillow)" >&2
    python3 -m pip install --quiet pillow >&2 \
      || python3 -m pip install --quiet --user --break-system-packages pillow >&2 \
      || echo "imglab: could not install Pillow; the example config tests need it" >&2
  fi
}
