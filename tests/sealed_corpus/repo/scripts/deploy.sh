#!/usr/bin/env bash
# Called by .github/workflows/deploy.yml. Builds both images and rolls them out.
set -euo pipefail

target="${GITHUB_REF_NAME:-main}"
echo "deploying ${target}"
docker build -t kestrel-api:"${target}" services/api
docker build -t kestrel-web:"${target}" apps/web
