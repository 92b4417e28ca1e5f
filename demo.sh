#!/usr/bin/env bash
# The main job in one command, on a fresh Debian machine: installs JDK 17 and Maven when they are missing,
# builds the speaker CLI, and runs its demo against the reference server embedded in the process. Extra
# arguments go to the demo (e.g. --interactive, --json, --verbose; docs/speaker-cli.md).
#
# Installing needs root (or sudo); a machine that has them installs nothing.
set -euo pipefail
cd "$(dirname "$0")"
. build-support/debian-setup.sh

install_missing

mvn -B -ntp -q package -DskipTests -Dskip.dex=true -pl samples/speaker-cli -am
exec java -jar samples/speaker-cli/target/speaker-cli.jar demo "$@"
