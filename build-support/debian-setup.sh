# Sourced by verify.sh and demo.sh. install_missing PACKAGE... installs, on Debian, the packages named that
# are missing, plus JDK 17 and Maven when the machine has no javac of release 17 or later, or no mvn. A JDK 17
# installed next to an older default one is put first on the PATH. Installing needs root (or sudo); a machine
# that has everything installs nothing.

jdk_release_ok() {
  command -v javac >/dev/null 2>&1 || return 1
  local release
  release="$(javac -version 2>&1 | sed -nE 's/^javac ([0-9]+).*/\1/p')"
  [ -n "$release" ] && [ "$release" -ge 17 ]
}

install_missing() {
  local packages=("$@")
  jdk_release_ok || packages+=(openjdk-17-jdk-headless)
  command -v mvn >/dev/null 2>&1 || packages+=(maven)

  local missing=()
  local p
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
      if ! command -v sudo >/dev/null 2>&1; then
        echo "$(basename "$0"): these Debian packages are missing and installing them needs root: ${missing[*]}" >&2
        exit 1
      fi
      sudo=(sudo)
    fi
    echo "$(basename "$0"): installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi

  if ! jdk_release_ok; then
    local jdk="/usr/lib/jvm/java-17-openjdk-$(dpkg --print-architecture)"
    if [ -x "$jdk/bin/javac" ]; then
      export JAVA_HOME="$jdk"
      export PATH="$jdk/bin:$PATH"
    fi
  fi
}
