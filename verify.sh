#!/usr/bin/env bash
# The whole test run in one command, on a fresh Debian machine: installs what the build and its tests need
# and the machine lacks, then runs `mvn -B -ntp verify` (extra arguments go to Maven, e.g. -Dskip.dex=true).
#
#   JDK 17 and Maven            openjdk-17-jdk-headless, maven (when javac or mvn is missing)
#   headless Chromium + driver  chromium, chromium-driver: the verification-page browser test
#   the sample APK              aapt, android-framework-res, zipalign, apksigner: build and verify it
#   the release dry run         unzip: the Maven wrapper unpacks Maven 3.9 with it, the check lists the bundle
#
# Installing needs root (or sudo); a machine that has everything installs nothing.
set -euo pipefail
cd "$(dirname "$0")"

packages=(chromium chromium-driver aapt android-framework-res zipalign apksigner unzip)
command -v javac >/dev/null 2>&1 || packages+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || packages+=(maven)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
      echo "verify.sh: these Debian packages are missing and installing them needs root: ${missing[*]}" >&2
      exit 1
    fi
    sudo=(sudo)
  fi
  echo "verify.sh: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

exec mvn -B -ntp verify "$@"
