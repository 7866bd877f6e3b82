#!/bin/sh
# Install dependencies, build pft, and run the main job on a bundled example.
set -e
cd "$(dirname "$0")/.."
./scripts/deps.sh
cmake -S . -B build/release -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/release -j"$(nproc 2>/dev/null || echo 2)"
./build/release/pft --help
