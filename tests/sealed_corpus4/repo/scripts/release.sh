#!/usr/bin/env bash
set -euo pipefail
VERSION=${1:?usage: release.sh VERSION}
git tag -a "v$VERSION" -m "Release v$VERSION"
git push origin "v$VERSION"
