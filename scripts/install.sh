#!/bin/sh
# Installs the rein binary for this machine:
#
#   curl -fsSL https://github.com/rein-dev/rein/releases/latest/download/install.sh | sh
#
# Environment:
#   REIN_VERSION       install this version (e.g. 0.1.0) instead of the latest release
#   REIN_RELEASE_URL   folder holding the rein-* binaries and SHA256SUMS (overrides the default)
#   REIN_INSTALL_DIR   where to put `rein` (default: ~/.local/bin)
#
# Everything lives in functions and `main` runs on the last line, so a download cut off half way
# through never runs a partial script.
set -eu

REPO_URL="https://github.com/rein-dev/rein"
RELEASES_PAGE="$REPO_URL/releases"

say() {
  printf 'rein install: %s\n' "$*" >&2
}

die() {
  say "error: $*"
  exit 1
}

has() {
  command -v "$1" >/dev/null 2>&1
}

# --- detection ---------------------------------------------------------------------------------

detect_os() {
  os=$(uname -s)
  case "$os" in
    Linux) echo linux ;;
    Darwin) echo darwin ;;
    MINGW* | MSYS* | CYGWIN* | Windows_NT)
      die "this script does not install on Windows; download rein-windows-x64.exe from $1/rein-windows-x64.exe (or $RELEASES_PAGE) and put it on your PATH" ;;
    *) die "no rein build for the operating system '$os'; see $RELEASES_PAGE for the available builds" ;;
  esac
}

detect_arch() {
  arch=$(uname -m)
  case "$arch" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) die "no rein build for the CPU architecture '$arch'; see $RELEASES_PAGE for the available builds" ;;
  esac
  # An x64 shell on Apple silicon runs under Rosetta 2: the native arm64 build is the one to get.
  if [ "$1" = darwin ] && [ "$arch" = x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || true)" = 1 ]; then
    arch=arm64
  fi
  echo "$arch"
}

is_musl() {
  for loader in /lib/ld-musl-*; do
    [ -e "$loader" ] && return 0
  done
  has ldd && ldd --version 2>&1 | grep -qi musl
}

asset_name() {
  os=$1
  arch=$2
  if [ "$os" = linux ] && is_musl; then
    [ "$arch" = x64 ] || die "no rein build for musl on $arch (only x64); see $RELEASES_PAGE"
    echo "rein-linux-x64-musl"
    return
  fi
  echo "rein-$os-$arch"
}

# --- download and verify -----------------------------------------------------------------------

download() {
  url=$1
  out=$2
  if has curl; then
    curl -fsSL --retry 2 -o "$out" "$url" && return 0
  elif has wget; then
    wget -q -O "$out" "$url" && return 0
  else
    die "neither curl nor wget is installed; install one of them and run this script again"
  fi
  die "could not download $url${REIN_VERSION:+ (is REIN_VERSION=$REIN_VERSION a released version?)}"
}

sha256_of() {
  if has sha256sum; then
    sha256sum "$1" | cut -d ' ' -f 1
  elif has shasum; then
    shasum -a 256 "$1" | cut -d ' ' -f 1
  else
    die "neither sha256sum nor shasum is installed, so the download cannot be verified; install one of them (coreutils or perl) and run this script again"
  fi
}

verify() {
  file=$1
  name=$2
  sums=$3
  # sha256sum writes "<hex>  <name>", or "<hex> *<name>" in binary mode.
  expected=$(awk -v name="$name" '$2 == name || $2 == "*" name { print $1; exit }' "$sums")
  [ -n "$expected" ] || die "SHA256SUMS has no entry for $name; refusing to install an unverified binary"
  actual=$(sha256_of "$file")
  expected=$(printf '%s' "$expected" | tr 'A-F' 'a-f')
  if [ "$actual" != "$expected" ]; then
    die "checksum did not match for $name (expected $expected, got $actual); the download may be corrupt or tampered with. Nothing was installed."
  fi
}

# --- install -----------------------------------------------------------------------------------

path_hint() {
  dir=$1
  case ":${PATH:-}:" in
    *":$dir:"*) return ;;
  esac
  shown=$dir
  case "$dir" in
    "${HOME:-/nonexistent}"/*) shown="\$HOME${dir#"$HOME"}" ;;
  esac
  line="export PATH=\"$shown:\$PATH\""
  # The profile is named for the reader, so its "~" is meant to stay unexpanded.
  # shellcheck disable=SC2088
  case "${SHELL:-}" in
    */zsh) profile="~/.zshrc" ;;
    # Terminal on macOS starts login shells, which read .bash_profile and not .bashrc.
    */bash) if [ "$2" = darwin ]; then profile="~/.bash_profile"; else profile="~/.bashrc"; fi ;;
    */fish) profile="~/.config/fish/config.fish" line="fish_add_path \"$shown\"" ;;
    *) profile="~/.profile" ;;
  esac
  say "$dir is not on your PATH. Add this line to $profile, then open a new shell:"
  say "    $line"
}

main() {
  version=${REIN_VERSION:-}
  version=${version#v}
  if [ -n "${REIN_RELEASE_URL:-}" ]; then
    base=${REIN_RELEASE_URL%/}
  elif [ -n "$version" ]; then
    base="$RELEASES_PAGE/download/v$version"
  else
    base="$RELEASES_PAGE/latest/download"
  fi
  if [ -n "${REIN_INSTALL_DIR:-}" ]; then
    dir=$REIN_INSTALL_DIR
  else
    [ -n "${HOME:-}" ] || die "HOME is not set; set REIN_INSTALL_DIR to the folder to install into"
    dir="$HOME/.local/bin"
  fi

  os=$(detect_os "$base")
  arch=$(detect_arch "$os")
  name=$(asset_name "$os" "$arch")

  tmp=$(mktemp -d 2>/dev/null || mktemp -d -t rein-install)
  staged=""
  # Removes the downloads and a half-installed binary however the script ends.
  trap 'rm -rf "$tmp"; [ -z "$staged" ] || rm -f "$staged"' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM

  say "downloading $name from $base"
  download "$base/$name" "$tmp/$name"
  download "$base/SHA256SUMS" "$tmp/SHA256SUMS"
  verify "$tmp/$name" "$name" "$tmp/SHA256SUMS"

  mkdir -p "$dir" || die "could not create $dir"
  dir=$(CDPATH="" cd -- "$dir" && pwd)
  dest="$dir/rein"
  # Staged in the install dir so the final mv is an atomic rename on the same file system, and
  # checked there before the rename: a binary that cannot run never replaces a working one.
  staged="$dir/.rein.install.$$"
  cp "$tmp/$name" "$staged" || die "could not write to $dir"
  chmod 755 "$staged"
  if ! out=$("$staged" --version 2>&1); then
    die "the downloaded binary does not run on this machine ($name): $out"
  fi
  if [ -n "$version" ]; then
    case " $out " in
      *" $version "* | *" v$version "*) ;;
      *) die "asked for version $version but the downloaded binary reports '$out'; nothing was installed" ;;
    esac
  fi
  mv -f "$staged" "$dest" || die "could not move the binary to $dest"
  staged=""

  out=$("$dest" --version 2>&1) || {
    rm -f "$dest"
    die "the installed $dest does not run: $out"
  }
  say "installed $out to $dest"
  path_hint "$dir" "$os"
  found=$(command -v rein 2>/dev/null || true)
  if [ -n "$found" ] && [ "$found" != "$dest" ]; then
    say "note: another rein comes first on your PATH: $found"
  fi
}

main "$@"
