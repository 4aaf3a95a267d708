#!/usr/bin/env bash
# Deploy the service.
source ./lib/common.sh
. "$HOME/.env"

build() {
  echo "building"
  go build ./...
}

deploy() {
  build
  upload "$1"
}

function upload {
  scp "$1" host:
}

deploy "$@"
