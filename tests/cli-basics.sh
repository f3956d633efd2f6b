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
expect_out 'a 95% interval \(0 < F <= 1\) \[default: 0\.05\]' \
    "run --help shows run's --scan-fraction default"
rb sample --help
expect_out 'a 95% interval \(0 < F <= 1\) \[default: 1\]' \
    "sample --help shows the table's"

done_testing
