# tests for the runner: run, suites, signals, verify.
TESTS += tests/runner-cli.sh
EXTRA_DIST += tests/runner-cli.sh
