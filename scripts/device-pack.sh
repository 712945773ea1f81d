#!/usr/bin/env bash
# device-pack.sh DIR — a folder that runs `skinbench run gpu` on a machine
# without Debian packages (a GPU machine with only its driver), for
# scripts/device-gpu.sh DIR there (docs/experiments.md "GPU experiment").  DIR gets:
#   skinbench, gpu/shaders/, reports/reference.json (found next to the binary);
#   the shared libraries `ldd skinbench` lists, except the C runtime (libc,
#   ld-linux, libm, libpthread, libdl, librt) and Mesa's drivers, with glvnd's
#   dispatchers (libEGL.so.1, libOpenGL.so.0, libGLdispatch.so.0);
#   glvnd's libGL.so.1 / libGLX.so.0 go to DIR/fallback/, searched after the
#   driver's own directory (a driver that ships them wins);
#   models/: the assimp models the built-in datasets load (restored to
#   /usr/share/assimp/models by device-gpu.sh).
# Run from the repository root after `make`; DIR should be git-ignored
# (/device/ is).  Refuses a DIR that exists and is not empty.
set -eu
dir=${1:?usage: scripts/device-pack.sh DIR}
bin=./skinbench
[ -x "$bin" ] || bin=build/skinbench
[ -x "$bin" ] || { echo "device-pack.sh: no ./skinbench or build/skinbench: run make first" >&2; exit 2; }
if [ -e "$dir" ] && [ -n "$(ls -A "$dir" 2>/dev/null)" ]; then
  echo "device-pack.sh: $dir exists and is not empty" >&2; exit 2
fi
mkdir -p "$dir/gpu" "$dir/reports" "$dir/fallback" "$dir/models"
cp "$bin" "$dir/skinbench"
cp -r gpu/shaders "$dir/gpu/shaders"
cp reports/reference.json "$dir/reports/reference.json"
ldd "$bin" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}' | while read -r name path; do
  case "$name" in
    libc.so*|ld-linux*|libm.so*|libpthread.so*|libdl.so*|librt.so*) continue ;;
    libEGL_mesa*|libGLX_mesa*|libGLESv*) continue ;;
    libGL.so*|libGLX.so*) cp -L "$path" "$dir/fallback/$name" ;;
    *) cp -L "$path" "$dir/$name" ;;
  esac
done
# glvnd's dispatchers, whether or not ldd lists them
for lib in libEGL.so.1 libOpenGL.so.0 libGLdispatch.so.0; do
  p=$(ldconfig -p | awk -v l="$lib" '$1 == l && /x86-64/ {print $NF; exit}')
  [ -n "$p" ] && cp -L "$p" "$dir/$lib"
done
# the models the built-in datasets read (datasets/real_models.c, procedural_body.c)
src=/usr/share/assimp/models
for m in BVH/01_01.bvh X/BCN_Epileptic.X X/Testwuson.X X/anim_test.x FBX/animation_with_skeleton.fbx; do
  if [ -f "$src/$m" ]; then
    mkdir -p "$dir/models/$(dirname "$m")"
    cp "$src/$m" "$dir/models/$m"
  else
    echo "device-pack.sh: $src/$m missing: its dataset will be skipped there" >&2
  fi
done
cp scripts/device-gpu.sh "$dir/device-gpu.sh"
echo "device-pack.sh: $dir: $(du -sm "$dir" | cut -f1) MiB"
