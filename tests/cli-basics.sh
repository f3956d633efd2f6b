# The command table: help, version, unique prefixes, unknown commands.
. "$top_srcdir/tests/cli-lib.sh"

rb --version
expect_rc 0 "--version"
expect_out '^regionbench [0-9]+\.[0-9]+' "--version prints the version"

rb help
expect_rc 0 "help lists the commands"
expect_out '^  help ' "help lists itself"

rb
expect_rc 2 "no command is a usage error"

rb no-such-command
expect_rc 2 "an unknown command is a usage error"
expect_err "unknown command 'no-such-command'" "and says which"

rb he
expect_rc 0 "a unique prefix runs the command"

# A command's own source defaults are the ones its help shows.
rb run --help
expect_out 'exact counts\) \[default: 1\]' \
    "run --help: --scan-fraction defaults to exact counts"
expect_out 'every sample \[default: auto\]' \
    "run --help: --scan-rotation defaults to auto"
rb sample --help
expect_out 'exact counts\) \[default: 1\]' \
    "sample --help shows the same"

done_testing
