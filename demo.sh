#!/usr/bin/env bash
# The main job in one command, on a fresh Debian machine: installs JDK 17 and Maven when they are missing,
# builds the speaker CLI, and runs its demo against the reference server embedded in the process. Extra
# arguments go to the demo (e.g. --interactive, --json, --verbose; docs/speaker-cli.md).
#
# Installing needs root (or sudo); a machine that has them installs nothing. Only the demo writes to
# stdout (so --json output is JSON only), and relative paths in its arguments are the caller's.
set -euo pipefail
root="$(cd "$(dirname "$0")" && pwd)"
. "$root/build-support/debian-setup.sh"

install_missing

mvn -B -ntp -q -f "$root/pom.xml" package -DskipTests -Dskip.dex=true -pl samples/speaker-cli -am >&2
exec java -jar "$root/samples/speaker-cli/target/speaker-cli.jar" demo "$@"
