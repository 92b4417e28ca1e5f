# Sourced by verify.sh and demo.sh. install_missing PACKAGE... installs, on Debian, the packages named that
# are missing, plus a JDK and Maven when the machine has no javac of release 17 or later, or no mvn: JDK 17
# where the release has it (Debian 12), else the release's default JDK (Debian 13 has 21 and up). A JDK 17
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
  local need_jdk=0
  jdk_release_ok || need_jdk=1
  command -v mvn >/dev/null 2>&1 || packages+=(maven)

  local missing=()
  local p
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ "${#missing[@]}" -gt 0 ] || [ "$need_jdk" -eq 1 ]; then
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
      if ! command -v sudo >/dev/null 2>&1; then
        echo "$(basename "$0"): these Debian packages are missing and installing them needs root: ${missing[*]}" >&2
        exit 1
      fi
      sudo=(sudo)
    fi
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -qq
    if [ "$need_jdk" -eq 1 ]; then
      if apt-cache show openjdk-17-jdk-headless >/dev/null 2>&1; then
        missing+=(openjdk-17-jdk-headless)
      else
        missing+=(default-jdk-headless)
      fi
    fi
    echo "$(basename "$0"): installing ${missing[*]}" >&2
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
