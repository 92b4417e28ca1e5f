#!/usr/bin/env bash
# A release without a signing key and without an upload: builds, from a copy of the working tree set to a
# release version, the bundle that `./mvnw -Prelease deploy` would upload to the Central Portal, then checks
# that it holds each published module (POM, .module, and for a library its archive, sources and javadoc)
# and nothing of any other module. See docs/building.md, "Releasing to Maven Central".
#
#   build-support/release-dry-run.sh [VERSION]     VERSION defaults to the current one without -SNAPSHOT
#
# The copy and the bundle stay in target/release-dry-run/ for inspection.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
current="$(grep -m1 -o '<version>[^<]*' "$root/pom.xml" | sed 's/<version>//')"
release="${1:-${current%-SNAPSHOT}}"
work="$root/target/release-dry-run"

rm -rf "$work"
mkdir -p "$work/repo"
(cd "$root" && tar --exclude=./.git --exclude=./target --exclude='*/target' --exclude='.flattened-pom.xml' -cf - .) \
  | (cd "$work/repo" && tar -xf -)
cd "$work/repo"

echo "release-dry-run: $current -> $release in $work/repo"
./mvnw -B -ntp -q versions:set -DnewVersion="$release" -DprocessAllModules -DgenerateBackupPoms=false
./mvnw -B -ntp -Prelease -Dgpg.skip -DskipUpload -DskipTests -Dskip.dex=true -Dskip.fuzz=true deploy \
  > "$work/deploy.log" 2>&1 || { tail -60 "$work/deploy.log"; echo "release-dry-run: the build failed, see $work/deploy.log" >&2; exit 1; }

bundle="$(find . -path '*/target/central-publishing/central-bundle.zip' | head -1)"
[ -n "$bundle" ] || { echo "release-dry-run: no central-bundle.zip was made, see $work/deploy.log" >&2; exit 1; }
cp "$bundle" "$work/central-bundle.zip"
unzip -Z1 "$work/central-bundle.zip" | sort > "$work/bundle.txt"
echo "release-dry-run: $work/central-bundle.zip"
cat "$work/bundle.txt"

# The modules that opt into publication, from their POMs; a library also ships sources and javadoc.
published=()
problems=0
for pom in $(sed -n 's|.*<module>\(.*\)</module>.*|\1/pom.xml|p' pom.xml); do
  grep -q '<voicelink.publish.skip>false</voicelink.publish.skip>' "$pom" || continue
  artifact="$(grep -o '<artifactId>voicelink-[^<]*' "$pom" | grep -v voicelink-parent | head -1 | sed 's/<artifactId>//')"
  published+=("$artifact")
  dir="dev/voicelink/$artifact/$release"
  expected=("$artifact-$release.pom" "$artifact-$release.module")
  if ! grep -q '<packaging>pom</packaging>' "$pom"; then
    expected+=("$artifact-$release.jar" "$artifact-$release-sources.jar" "$artifact-$release-javadoc.jar")
    if grep -q '<voicelink.variant.elements>aar</voicelink.variant.elements>' "$pom"; then
      expected+=("$artifact-$release.aar")
    fi
  fi
  for f in "${expected[@]}"; do
    for suffix in "" .md5 .sha1; do
      grep -qx "$dir/$f$suffix" "$work/bundle.txt" || { echo "release-dry-run: missing $dir/$f$suffix" >&2; problems=1; }
    done
  done
done
others="$(sed -n 's|^dev/voicelink/\([^/]*\)/.*|\1|p' "$work/bundle.txt" | sort -u)"
for artifact in $others; do
  [[ " ${published[*]} " == *" $artifact "* ]] || { echo "release-dry-run: $artifact is not published but is in the bundle" >&2; problems=1; }
done
[ "$problems" -eq 0 ] || exit 1
echo "release-dry-run: the bundle holds ${published[*]} and nothing else"
