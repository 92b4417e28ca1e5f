#!/usr/bin/env bash
# A release without a signing key and without an upload: builds, from a copy of the working tree set to a
# release version, the bundle that `./mvnw -Prelease deploy` would upload to the Central Portal, then checks
# that it holds exactly the files of the published modules (POM, .module, and for a library its archive,
# sources, javadoc and the classified archives its POM declares) with their checksums, and nothing else: no
# other module, no test jar. Nothing is installed into ~/.m2. See docs/building.md, "Releasing to Maven Central".
#
#   build-support/release-dry-run.sh [VERSION]     VERSION defaults to the current one without -SNAPSHOT
#
# The copy and the bundle stay in target/release-dry-run/ for inspection.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
current="$(grep -m1 -o '<version>[^<]*' "$root/pom.xml" | sed 's/<version>//')"
release="${1:-${current%-SNAPSHOT}}"
# The local repository of the build that runs this one (ReleaseBundleIT sets it), else Maven's own.
repo_local=()
[ -z "${VOICELINK_MAVEN_REPO_LOCAL:-}" ] || repo_local=("-Dmaven.repo.local=$VOICELINK_MAVEN_REPO_LOCAL")
work="$root/target/release-dry-run"

rm -rf "$work"
mkdir -p "$work/repo"
(cd "$root" && tar --exclude=./.git --exclude=./target --exclude='*/target' --exclude='.flattened-pom.xml' -cf - .) \
  | (cd "$work/repo" && tar -xf -)
cd "$work/repo"

echo "release-dry-run: $current -> $release in $work/repo"
./mvnw -B -ntp -q ${repo_local[@]+"${repo_local[@]}"} versions:set -DnewVersion="$release" -DprocessAllModules \
  -DgenerateBackupPoms=false
./mvnw -B -ntp ${repo_local[@]+"${repo_local[@]}"} -Prelease -Dgpg.skip -DskipUpload -Dmaven.test.skip=true -Dvoicelink.install.skip=true \
  -Dskip.dex=true deploy \
  > "$work/deploy.log" 2>&1 || { tail -60 "$work/deploy.log"; echo "release-dry-run: the build failed, see $work/deploy.log" >&2; exit 1; }

bundle="$(find . -path '*/target/central-publishing/central-bundle.zip' | head -1)"
[ -n "$bundle" ] || { echo "release-dry-run: no central-bundle.zip was made, see $work/deploy.log" >&2; exit 1; }
cp "$bundle" "$work/central-bundle.zip"
unzip -Z1 "$work/central-bundle.zip" | sort > "$work/bundle.txt"
echo "release-dry-run: $work/central-bundle.zip"
cat "$work/bundle.txt"

# The modules that opt into publication, from their POMs, and the files each must publish.
published=()
expected=()
for pom in $(sed -n 's|.*<module>\(.*\)</module>.*|\1/pom.xml|p' pom.xml); do
  grep -q '<voicelink.publish.skip>false</voicelink.publish.skip>' "$pom" || continue
  artifact="$(grep -o '<artifactId>voicelink-[^<]*' "$pom" | grep -v voicelink-parent | head -1 | sed 's/<artifactId>//')"
  published+=("$artifact")
  base="dev/voicelink/$artifact/$release/$artifact-$release"
  expected+=("$base.pom" "$base.module")
  if ! grep -q '<packaging>pom</packaging>' "$pom"; then
    expected+=("$base.jar" "$base-sources.jar" "$base-javadoc.jar")
    if grep -q '<voicelink.variant.elements>aar</voicelink.variant.elements>' "$pom"; then
      expected+=("$base.aar")
    fi
    for classifier in $(sed -n 's|.*<shadedClassifierName>\(.*\)</shadedClassifierName>.*|\1|p' "$pom"); do
      expected+=("$base-$classifier.jar")
    done
  fi
done
problems=0
for f in "${expected[@]}"; do
  for suffix in "" .md5 .sha1 .sha256 .sha512; do
    grep -qx "$f$suffix" "$work/bundle.txt" || { echo "release-dry-run: missing $f$suffix" >&2; problems=1; }
  done
done
while read -r entry; do
  [[ "$entry" == */ ]] && continue
  file="$(sed -E 's/\.(md5|sha1|sha256|sha512)$//' <<< "$entry")"
  [[ " ${expected[*]} " == *" $file "* ]] \
    || { echo "release-dry-run: in the bundle, but not a published file: $entry" >&2; problems=1; }
done < "$work/bundle.txt"
[ "$problems" -eq 0 ] || exit 1
echo "release-dry-run: the bundle holds ${published[*]} and nothing else"
