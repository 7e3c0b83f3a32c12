# Sourced by the build and hardening scripts: `need CMD PACKAGE...` installs Debian packages when CMD is
# missing (as root, or through sudo), and says what to install when it cannot.
need() {
  local cmd="$1"; shift
  command -v "$cmd" >/dev/null 2>&1 && return 0
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      echo "missing $cmd: install the Debian packages $* (apt-get install $*)"; return 1
    fi
  fi
  echo "installing $* for $cmd"
  if [ -z "${DT_APT_UPDATED:-}" ]; then $sudo apt-get update -qq; DT_APT_UPDATED=1; fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}

# `need_file PATH PACKAGE...`: the same for a file another package may leave out (a command can be
# there without it: wasm/build.sh installs clang-14 without the sanitizer runtimes libFuzzer needs).
need_file() {
  local path="$1"; shift
  [ -e "$path" ] && return 0
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      echo "missing $path: install the Debian packages $* (apt-get install $*)"; return 1
    fi
  fi
  echo "installing $* for $path"
  if [ -z "${DT_APT_UPDATED:-}" ]; then $sudo apt-get update -qq; DT_APT_UPDATED=1; fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}
