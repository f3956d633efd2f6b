# The bash completion make install puts in place (bench/completion/, made
# by regionbench help --completion bash from the option tables): bash
# registers it (complete -p), and it completes commands, a command's
# options, an option's choices, suites for run and workloads for workload.
# The zsh file is the same function under zsh's bashcompinit.
. "$top_srcdir/tests/cli-lib.sh"

command -v bash >/dev/null 2>&1 || skip_all "bash is not installed"
BASH_FILE="${top_builddir:-.}/bench/completion/regionbench"
ZSH_FILE="${top_builddir:-.}/bench/completion/_regionbench"
[ -r "$BASH_FILE" ] || skip_all "no built $BASH_FILE"

# complete WORDS...: what the completion offers for the command line
# WORDS (the last one being completed), one per line, sorted.
complete_words() {
	bash -c '. "$1"; shift
	COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
	_regionbench; printf "%s\n" "${COMPREPLY[@]}" | sort' \
	    sh "$BASH_FILE" "$@"
}

bash -c ". '$BASH_FILE'; complete -p regionbench" >"$WORK/out" 2>&1
expect_out '^complete -o filenames -F _regionbench regionbench$' \
    "bash: complete -p names the function"
[ "$(complete_words regionbench comp)" = compare ]
ok $? "a command from its start"
complete_words regionbench analyze --fo >"$WORK/out"
expect_out '^--format$' "an option of the command"
complete_words regionbench analyze --format "" >"$WORK/out"
[ "$(tr '\n' ' ' <"$WORK/out")" = "csv json markdown text " ]
ok $? "an option's choices"
complete_words regionbench info --so >"$WORK/out"
expect_out '^--source$' "the region source options of a command that takes them"
complete_words regionbench run q >"$WORK/out"
expect_out '^quick$' "run: the suites"
complete_words regionbench workload pa >"$WORK/out"
expect_out '^pagetest$' "workload: the workloads"
complete_words regionbench help ver >"$WORK/out"
expect_out '^verify$' "help: the commands"
# Every option --help lists is offered.
missing=""
for cmd in analyze compare gate store run verify list info; do
	for opt in $("$REGIONBENCH" "$cmd" --help | grep -o '^  --[a-z-]*' |
	    sed 's/^ *//'); do
		complete_words regionbench "$cmd" "$opt" | grep -qx -- "$opt" ||
		    missing="$missing $cmd $opt"
	done
done
[ -z "$missing" ]
ok $? "every option --help lists is completed${missing:+ (missing:$missing)}"
head -1 "$ZSH_FILE" | grep -qx '#compdef regionbench' &&
    grep -q '^autoload -U +X bashcompinit && bashcompinit$' "$ZSH_FILE" &&
    grep -q '^complete -o filenames -F _regionbench regionbench$' "$ZSH_FILE"
ok $? "zsh: a #compdef file using the same function"

done_testing
