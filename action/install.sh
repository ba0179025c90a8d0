#!/usr/bin/env bash
# action/install.sh - installs robotsmith for the action's other steps.
#
#   install.sh plan      decides where robotsmith comes from: a release archive (INPUT_VERSION, or the
#                        action's own ref, ACTION_REF, when it is a release tag such as v1.2.3) or the
#                        action's own checkout, built with Go; writes from=release|source and version
#                        to GITHUB_OUTPUT
#   install.sh install   installs it into RUNNER_TEMP/robotsmith/bin (INSTALL_FROM, INSTALL_VERSION as
#                        plan wrote them), puts that folder on GITHUB_PATH, writes path to GITHUB_OUTPUT
#
# A release archive is verified against the release's checksums.txt before it is unpacked.
# ROBOTSMITH_RELEASES (default https://github.com/robotsmith/robotsmith/releases/download) is where
# releases are downloaded from: a mirror, or a test's server.
set -euo pipefail

releases=${ROBOTSMITH_RELEASES:-https://github.com/robotsmith/robotsmith/releases/download}

plan() {
  local v=${INPUT_VERSION:-}
  if [ -z "$v" ] && [[ ${ACTION_REF:-} =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
    v=$ACTION_REF
  fi
  v=${v#v}
  if [ -z "$v" ] || [ "$v" = source ]; then
    echo "robotsmith: building robotsmith from the action's checkout (${ACTION_REF:-no ref}): it is not a release tag"
    echo "from=source" >>"$GITHUB_OUTPUT"
    echo "version=" >>"$GITHUB_OUTPUT"
    return
  fi
  if ! [[ $v =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
    echo "::error title=robotsmith::version \"$v\" is not a release version (1.2.3), nor source"
    exit 1
  fi
  echo "from=release" >>"$GITHUB_OUTPUT"
  echo "version=$v" >>"$GITHUB_OUTPUT"
}

# target is the release archive's os_arch for this runner: linux_amd64, darwin_arm64, ...
target() {
  local os arch
  case ${RUNNER_OS:-$(uname -s)} in
    Linux | linux) os=linux ;;
    macOS | Darwin) os=darwin ;;
    Windows | MINGW* | MSYS*) os=windows ;;
    *) echo "::error title=robotsmith::no release archive for the runner's system ${RUNNER_OS:-$(uname -s)}" >&2; return 1 ;;
  esac
  case ${RUNNER_ARCH:-$(uname -m)} in
    X64 | x86_64 | amd64) arch=amd64 ;;
    ARM64 | aarch64 | arm64) arch=arm64 ;;
    *) echo "::error title=robotsmith::no release archive for the runner's architecture ${RUNNER_ARCH:-$(uname -m)}" >&2; return 1 ;;
  esac
  echo "${os}_${arch}"
}

sha256() {
  if command -v sha256sum >/dev/null; then sha256sum "$1"; else shasum -a 256 "$1"; fi | cut -d' ' -f1
}

install() {
  local dir="$RUNNER_TEMP/robotsmith" bin exe=robotsmith
  bin="$dir/bin"
  mkdir -p "$bin"
  case ${INSTALL_FROM:-} in
    source)
      if [[ $(target) == windows_* ]]; then exe=robotsmith.exe; fi
      # -buildvcs=false: the action's checkout has no .git of its own, and one above it (a local
      # action, ./) is the user's repository, not robotsmith's.
      (cd "$GITHUB_ACTION_PATH" && CGO_ENABLED=0 go build -trimpath -buildvcs=false -o "$bin/$exe" .)
      ;;
    release)
      local v=$INSTALL_VERSION t archive
      t=$(target)
      archive="robotsmith_${v}_${t}.tar.gz"
      if [[ $t == windows_* ]]; then archive="robotsmith_${v}_${t}.zip" exe=robotsmith.exe; fi
      echo "robotsmith: installing $archive"
      curl -fsSL --retry 3 -o "$dir/$archive" "$releases/v$v/$archive"
      curl -fsSL --retry 3 -o "$dir/checksums.txt" "$releases/v$v/checksums.txt"
      local want got
      want=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1 }' "$dir/checksums.txt")
      got=$(sha256 "$dir/$archive")
      if [ -z "$want" ] || [ "$want" != "$got" ]; then
        echo "::error title=robotsmith::$archive does not match the release's checksums.txt (want ${want:-no entry}, got $got)"
        exit 1
      fi
      if [[ $archive == *.zip ]]; then
        unzip -o -q "$dir/$archive" "$exe" -d "$bin"
      else
        tar -xzf "$dir/$archive" -C "$bin" "$exe"
      fi
      ;;
    *)
      echo "::error title=robotsmith::install.sh install: INSTALL_FROM is \"${INSTALL_FROM:-}\", want release or source (from install.sh plan)"
      exit 1
      ;;
  esac
  echo "$bin" >>"$GITHUB_PATH"
  echo "path=$bin/$exe" >>"$GITHUB_OUTPUT"
  "$bin/$exe" version
}

case ${1:-} in
  plan) plan ;;
  install) install ;;
  *) echo "usage: install.sh plan|install" >&2; exit 2 ;;
esac
