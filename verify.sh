#!/usr/bin/env bash
# The whole test run in one command, on a fresh Debian machine: installs what the build and its tests need
# and the machine lacks, then runs `mvn -B -ntp verify` (extra arguments go to Maven, e.g. -Dskip.dex=true).
#
#   JDK 17 and Maven            openjdk-17-jdk-headless, maven (when there is no javac 17+ or no mvn)
#   headless Chromium + driver  chromium, chromium-driver: the verification-page browser test
#   the sample APK              aapt, android-framework-res, zipalign, apksigner: build and verify it
#   the release dry run         unzip: the Maven wrapper unpacks Maven 3.9 with it, the check lists the bundle
#   a terminal for the CLI      bsdutils (script): typing a secret at a terminal that must not show it
#
# Installing needs root (or sudo); a machine that has everything installs nothing.
set -euo pipefail
cd "$(dirname "$0")"
. build-support/debian-setup.sh

install_missing chromium chromium-driver aapt android-framework-res zipalign apksigner unzip bsdutils

exec mvn -B -ntp verify "$@"
