# regionbench vm's choice of accelerator, and QEMU's own words when it
# fails.  A fake QEMU ($REGIONBENCH_QEMU) fails under KVM as QEMU does on a
# host whose /dev/kvm opens but cannot run a guest (a nested hypervisor
# without the CPU's virtualisation support): with -cpu host it aborts
# ("failed to set MSR"), with a named model the guest never gets anywhere.
# Under TCG it runs the real QEMU.  Each case runs in a mount namespace
# whose /dev has a /dev/kvm that opens (or none), so the test is the same
# on a host with a working KVM, a broken one or none.
. "$top_srcdir/tests/cli-lib.sh"

vm_test_setup
command -v unshare >/dev/null || skip_all "no unshare (util-linux)"
[ "$(id -u)" -eq 0 ] || skip_all "needs root (a mount namespace)"
unshare -m true 2>/dev/null || skip_all "cannot make a mount namespace"

real_qemu=$(command -v qemu-system-x86_64)
fake="$WORK/bin/qemu-system-x86_64"
mkdir -p "$WORK/bin"
cat >"$fake" <<EOF
#!/bin/sh
# FAKE_QEMU: broken-kvm (default), kvm-needs-model, fail-exit, fail-abort
mode=\${FAKE_QEMU:-broken-kvm}
accel= cpu=
prev=
for a in "\$@"; do
	case \$prev in
	-accel) accel=\$a ;;
	-cpu) cpu=\$a ;;
	esac
	prev=\$a
done
echo "\$accel \$cpu" >>"$WORK/qemu-calls"
case \$mode in
fail-exit)
	echo "qemu-system-x86_64: -virtfs local: cannot initialize fsdev" >&2
	exit 1 ;;
fail-abort)
	echo "qemu-system-x86_64: error: planted failure" >&2
	kill -ABRT \$\$ ;;
esac
if [ "\$accel" = kvm ]; then
	if [ "\$cpu" = host ]; then
		echo "qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69" >&2
		echo "qemu-system-x86_64: ../../target/i386/kvm/kvm.c:3183: kvm_buf_set_msrs: Assertion failed." >&2
		kill -ABRT \$\$
	fi
	[ "\$mode" = kvm-needs-model ] || exec sleep 600
	# A KVM that runs guests with a named model: emulate it.
	for a in "\$@"; do
		shift
		[ "\$a" = kvm ] && a=tcg
		set -- "\$@" "\$a"
	done
fi
exec "$real_qemu" "\$@"
EOF
chmod +x "$fake"
export REGIONBENCH_QEMU="$fake"

# in_dev KVM COMMAND...: run COMMAND with a private /dev holding the usual
# character devices and, with KVM=kvm, a /dev/kvm that opens (a null device).
in_dev() {
	kvm=$1
	shift
	unshare -m sh -c '
	mount --make-rprivate / &&
	mount -t tmpfs -o mode=755 rb-dev /dev &&
	mknod -m 666 /dev/null c 1 3 && mknod -m 666 /dev/zero c 1 5 &&
	mknod -m 666 /dev/full c 1 7 && mknod -m 666 /dev/random c 1 8 &&
	mknod -m 666 /dev/urandom c 1 9 && ln -s /proc/self/fd /dev/fd &&
	{ [ "$0" != kvm ] || mknod -m 600 /dev/kvm c 1 3; } &&
	exec "$@"' "$kvm" "$@" >"$WORK/out" 2>"$WORK/err" </dev/null
	RC=$?
}

kvm_calls() {
	if [ -f "$WORK/qemu-calls" ]; then
		grep -c '^kvm' "$WORK/qemu-calls"
	else
		echo 0
	fi
}

# A /dev/kvm that opens but cannot run a guest: TCG, and why.
in_dev kvm "$REGIONBENCH" vm --kernel "$kernel" --memory 512M --cpus 1 \
    --scratch 0 --out "$WORK/broken" \
    -- sh -c 'echo to-stdout; echo to-stderr >&2'
expect_rc 0 "auto falls back to TCG and the command runs"
expect_err 'vm: /dev/kvm cannot run a guest here \(QEMU: failed to set MSR 0x10a to 0x69\): using TCG' \
    "one line says why TCG was used, in QEMU's words"
grep -q '"accel": "tcg"' "$WORK/broken/vm.json" &&
    grep -q '"accel_reason": "/dev/kvm cannot run a guest here (QEMU: failed to set MSR 0x10a to 0x69)"' \
    "$WORK/broken/vm.json"
ok $? "vm.json records the accelerator and the reason"
grep -qx 'kvm host' "$WORK/qemu-calls" &&
    grep -qx 'kvm qemu64' "$WORK/qemu-calls" &&
    grep -qx 'tcg ' "$WORK/qemu-calls"
ok $? "probed -cpu host, then a named model, then booted with TCG"
[ "$(grep -c . "$WORK/out")" -eq 1 ] && grep -qx 'to-stdout' "$WORK/out"
ok $? "the command's stdout, alone, on stdout"
grep -qx 'to-stderr' "$WORK/err"
ok $? "the command's stderr on stderr"
[ -f "$WORK/broken/vm-qemu.log" ]
ok $? "QEMU's own output is kept as vm-qemu.log"

# The answer is kept for this boot of the host: no second probe.
before=$(kvm_calls)
in_dev kvm "$REGIONBENCH" vm --kernel "$kernel" --memory 512M --cpus 1 \
    --scratch 0 --out "$WORK/cached" -- true
expect_rc 0 "a second boot"
[ "$(kvm_calls)" -eq "$before" ]
ok $? "it reuses the probe's answer"
expect_err 'using TCG' "and still says why"

# --accel kvm where KVM cannot run a guest: exit 3, QEMU's words, a hint.
in_dev kvm "$REGIONBENCH" vm --accel kvm --kernel "$kernel" --memory 512M \
    --cpus 1 --scratch 0 --out "$WORK/forced" -- true
expect_rc 3 "--accel kvm on a KVM that cannot run a guest"
expect_err 'failed to set MSR 0x10a to 0x69.*--accel tcg' \
    "quotes QEMU and proposes --accel tcg"

# A KVM that runs guests but rejects -cpu host: a named model.
rm -rf "$XDG_CACHE_HOME/regionbench/vm/accel.json" "$WORK/qemu-calls"
FAKE_QEMU=kvm-needs-model in_dev kvm "$REGIONBENCH" vm --kernel "$kernel" \
    --memory 512M --cpus 1 --scratch 0 --out "$WORK/model" -- true
expect_rc 0 "KVM with a named model"
grep -q '"accel": "kvm"' "$WORK/model/vm.json" &&
    grep -q '"cpu": "qemu64"' "$WORK/model/vm.json"
ok $? "vm.json: kvm, -cpu qemu64"
tail -1 "$WORK/qemu-calls" | grep -qx 'kvm qemu64'
ok $? "the boot used the model the probe found"

# No /dev/kvm at all: TCG without a probe.
rm -f "$WORK/qemu-calls"
in_dev none "$REGIONBENCH" vm --kernel "$kernel" --memory 512M --cpus 1 \
    --scratch 0 --out "$WORK/nokvm" -- true
expect_rc 0 "no /dev/kvm: TCG"
grep -q '"accel_reason": "/dev/kvm: No such file or directory"' \
    "$WORK/nokvm/vm.json" && [ "$(kvm_calls)" -eq 0 ]
ok $? "vm.json says why, and nothing was probed"
in_dev none "$REGIONBENCH" vm --accel kvm --kernel "$kernel" --out \
    "$WORK/nokvm2" -- true
expect_rc 3 "--accel kvm without /dev/kvm"
expect_err '/dev/kvm: No such file or directory \(use --accel tcg' "says so"

# QEMU failing before the command ends: how it ended and what it said.
FAKE_QEMU=fail-exit in_dev none "$REGIONBENCH" vm --kernel "$kernel" \
    --memory 512M --cpus 1 --scratch 0 --out "$WORK/qfail" -- true
expect_rc 3 "QEMU exits with an error"
expect_err 'QEMU ended before the command did \(exit status 1\): "-virtfs local: cannot initialize fsdev"' \
    "the error quotes QEMU and its exit status"
grep -q 'cannot initialize fsdev' "$WORK/qfail/vm-qemu.log"
ok $? "vm-qemu.log keeps QEMU's output"
grep -q '"reason": "qemu failed"' "$WORK/qfail/vm.json" &&
    grep -q '"qemu_ended": "exit status 1"' "$WORK/qfail/vm.json"
ok $? "vm.json: qemu failed, exit status 1"
FAKE_QEMU=fail-abort in_dev none "$REGIONBENCH" vm --kernel "$kernel" \
    --memory 512M --cpus 1 --scratch 0 --out "$WORK/qabort" -- true
expect_rc 3 "QEMU aborts"
expect_err 'QEMU ended before the command did \(signal SIGABRT\): "planted failure"' \
    "the error names the signal and quotes QEMU"
! grep -q 'was killed' "$WORK/err"
ok $? "an abort is not called a kill"

done_testing
