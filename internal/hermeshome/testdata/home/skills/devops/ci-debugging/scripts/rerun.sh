#!/bin/sh
set -eu
gh run rerun "$1" --failed
