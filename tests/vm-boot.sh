# regionbench vm end to end: one boot of Debian's packaged kernel (fetched
# by tests/vm-kernel.sh) with 2 NUMA nodes running a script that samples
# inside the guest, then one boot whose guest never finishes.  Skips when
# QEMU or the kernel is missing.
. "$top_srcdir/tests/cli-lib.sh"

vm_test_setup

out="$WORK/vm-results"
cat >"$WORK/guest.sh" <<'GUEST'
set -u
pwd >pwd.txt
cat /proc/sys/kernel/tainted >tainted.txt
command -v regionbench >which.txt
stat -f -c %T /var/tmp >vartmp.txt
regionbench info >info.txt 2>&1
regionbench sample --source kpageflags --region-size 256M --interval 200ms \
    --count 3 --out s --quiet
echo "sample exited $?"
echo "the guest's stderr" >&2
exit 7
GUEST
# The cache over its limit when this boot adds its entries: the entries
# unused for two days go, the one used ten minutes ago and other files stay.
cache="$XDG_CACHE_HOME/regionbench/vm"
mkdir -p "$cache"
for f in vmlinux-old initramfs-old.cpio initramfs-recent.cpio notes.txt; do
	head -c 65536 /dev/zero >"$cache/$f"
done
touch -d '2 days ago' "$cache/vmlinux-old" "$cache/initramfs-old.cpio" \
    "$cache/notes.txt"
touch -d '10 minutes ago' "$cache/initramfs-recent.cpio"
export REGIONBENCH_VM_CACHE_MAX=64K
start=$(date +%s)
rb vm --kernel "$kernel" --nodes 2 --memory 1G --cpus 2 --scratch 256M \
    --append "page_alloc.shuffle=0" --timeout 15m --out "$out" \
    -- sh "$WORK/guest.sh"
diag "boot and command: $(($(date +%s) - start)) s"
unset REGIONBENCH_VM_CACHE_MAX
[ ! -e "$cache/vmlinux-old" ] && [ ! -e "$cache/initramfs-old.cpio" ] &&
    [ -e "$cache/initramfs-recent.cpio" ] && [ -e "$cache/notes.txt" ] &&
    [ "$(ls "$cache" | grep -c '^vmlinux-[0-9a-f]*$')" -eq 1 ] &&
    [ "$(ls "$cache" | grep -c '^initramfs-[0-9a-f]*\.cpio$')" -eq 1 ] &&
    [ -s "$cache/$(ls "$cache" | grep '^vmlinux-[0-9a-f]*$').sha256" ]
st=$?
ok $st "the cache drops what went unused longest, keeps what was just used, with its hash"
[ $st -eq 0 ] || diag "$(ls -l "$cache")"
expect_rc 7 "the command's exit status comes back"
expect_out "sample exited 0" "the command's output is relayed"
grep -qx "regionbench: vm: results in $(cd "$out" && pwd -P)" "$WORK/err"
ok $? "vm ends saying where the results are on the host"
grep -qx "the guest's stderr" "$WORK/err" &&
    ! grep -q "the guest's stderr" "$WORK/out" &&
    ! grep -q "sample exited" "$WORK/err"
ok $? "the command's stderr reaches stderr, its stdout stdout"
grep -q '"accel_reason": ' "$out/vm.json" &&
    grep -q '"accel_reason": ' "$out/s/meta.json"
ok $? "vm.json and the guest's meta.json say why this accelerator"
[ "$(cat "$out/pwd.txt" 2>/dev/null)" = "$out" ]
ok $? "the command runs in the --out directory"
[ "$(cat "$out/which.txt" 2>/dev/null)" = "$out/.regionbench-vm/bin/regionbench" ]
ok $? "this regionbench comes first on the guest's PATH"
grep -qx 'ext2/ext3' "$out/vartmp.txt" 2>/dev/null
ok $? "/var/tmp is the ext4 scratch disk"
grep -q 'topology: *2 NUMA nodes' "$out/info.txt" 2>/dev/null
ok $? "info sees 2 NUMA nodes"
[ "$RC" -eq 7 ] || diag "$(cat "$out/info.txt" 2>/dev/null)"
for f in meta.json regions.csv samples.csv events.csv; do
	[ -s "$out/s/$f" ]
	ok $? "sample in the guest wrote s/$f on the host"
done
grep -q '"status": "complete"' "$out/s/meta.json"
ok $? "the guest's sample is complete"
grep -q '"release": "6\.' "$out/s/meta.json" &&
    ! grep -q "\"release\": \"$(uname -r)\"" "$out/s/meta.json"
ok $? "meta.json has the guest's kernel, not the host's"
for k in '"guest"' '"sha256"' '"append": "page_alloc.shuffle=0"' \
    '"nodes": 2' '"memory_bytes": 1073741824' '"accel": "(tcg|kvm)"'; do
	grep -Eq "$k" "$out/s/meta.json"
	ok $? "meta.json records $k"
done
grep -q '"status": "complete"' "$out/vm.json" &&
    grep -q '"exit_status": 7' "$out/vm.json"
ok $? "vm.json: complete, exit status 7"
bt=$(sed -n 's/.*"boot_to_command_s": \([0-9.]*\).*/\1/p' "$out/vm.json")
diag "boot to command: ${bt:-unknown} s"
grep -q '"module_signatures": "removed"' "$out/vm.json" &&
    [ $(($(cat "$out/tainted.txt") & 8192)) -ne 0 ]
ok $? "module signatures removed: vm.json says so, the guest is tainted E"
grep -q 'command exited with status 7' "$out/vm-console.log"
ok $? "the console is in vm-console.log"
grep -q 'Command line:.*page_alloc.shuffle=0' "$out/vm-dmesg.log" &&
    ! grep -q '"kernel_report"' "$out/vm.json"
ok $? "the guest's kernel log is in vm-dmesg.log, with nothing to report"
[ ! -e "$out/.regionbench-vm" ]
ok $? "the control directory and scratch image are removed"

# A kernel told to enforce module signatures gets its modules signed.
rb vm --kernel "$kernel" --memory 512M --cpus 1 --scratch 64M \
    --append "module.sig_enforce=1" --out "$WORK/vm-signed" \
    -- sh -c 'cat /proc/sys/kernel/tainted; stat -f -c %T /var/tmp'
expect_rc 0 "a boot with module.sig_enforce=1"
grep -q '"module_signatures": "kept"' "$WORK/vm-signed/vm.json" &&
    grep -qx 0 "$WORK/out" && grep -qx 'ext2/ext3' "$WORK/out"
ok $? "its modules keep their signatures, load, and taint nothing"

# A module the guest kernel refuses (its vermagic flags changed, which the host
# does not check): the init names it, the boot fails.
release=$(basename "$(dirname "$(dirname "$kernel")")/lib/modules/"*)
mods="$WORK/mods/$release"
mkdir -p "$WORK/mods"
cp -al "$(dirname "$kernel")/../lib/modules/$release" "$mods" 2>/dev/null ||
    cp -a "$(dirname "$kernel")/../lib/modules/$release" "$mods"
p9=$(cd "$mods" && find . -name 9p.ko -o -name '9p.ko.*' | head -1)
if [ "${p9##*.}" = ko ]; then
	rm "$mods/$p9"
	LC_ALL=C sed 's/\(vermagic=[^ ]* SMP\) /\1X/' \
	    "$(dirname "$kernel")/../lib/modules/$release/$p9" >"$mods/$p9"
	rb vm --kernel "$kernel" --modules "$mods" --memory 512M --cpus 1 \
	    --scratch 64M --out "$WORK/vm-badmod" -- true
	expect_rc 3 "a module the guest kernel refuses"
	grep -q 'cannot load module 9p.ko: Exec format error' \
	    "$WORK/vm-badmod/vm-console.log"
	ok $? "the console names the module and the error"
else
	ok 0 "# SKIP the modules are compressed"
	ok 0 "# SKIP the modules are compressed"
fi

# A kernel build tree given as --kernel TREE boots TREE/arch/x86/boot/bzImage
# with the modules built beside their sources (modules.order, no
# modules.dep, and kbuild's .NAME.ko.cmd and NAME.mod beside each), found
# without --modules.  Two are compressed with zstd and xz, as newer distribution
# kernels ship them: they are unpacked into the initramfs, and the root
# (9p) and /var/tmp (ext4) need them.
tree="$WORK/linux"
mkdir -p "$tree/arch/x86/boot"
cp "$kernel" "$tree/arch/x86/boot/bzImage"
cp -al "$(dirname "$kernel")/../lib/modules/$release/kernel/." "$tree/" \
    2>/dev/null ||
    cp -a "$(dirname "$kernel")/../lib/modules/$release/kernel/." "$tree/"
cp "$(dirname "$kernel")/../lib/modules/$release/modules.builtin" "$tree/"
(cd "$tree" && find . -name '*.ko' | sed 's|^\./||' >modules.order)
e4=$(cd "$tree" && find . -name ext4.ko | head -1)
p9=$(cd "$tree" && find . -name 9p.ko | head -1)
if [ -n "$e4" ] && [ -n "$p9" ] && command -v zstd >/dev/null &&
    command -v xz >/dev/null; then
	for m in "$e4" "$p9"; do
		d=$(dirname "$tree/$m") b=$(basename "$m" .ko)
		echo "savedcmd_$m := ld -r" >"$d/.$b.ko.cmd"
		echo "$d/$b.o" >"$d/$b.mod"
	done
	zstd -q --rm "$tree/$e4" && xz "$tree/$p9"
	rb vm --kernel "$tree" --memory 512M --cpus 1 \
	    --scratch 64M --out "$WORK/vm-tree" -- stat -f -c %T /var/tmp
	expect_rc 0 "a kernel build tree, with ext4.ko.zst and 9p.ko.xz"
	grep -q "\"path\": \"$tree/arch/x86/boot/bzImage\"" "$WORK/vm-tree/vm.json"
	ok $? "its image is arch/x86/boot/bzImage"
	grep -q "\"modules\": \"$tree\"" "$WORK/vm-tree/vm.json"
	ok $? "its modules are found in the tree without --modules"
	grep -qx 'ext2/ext3' "$WORK/out"
	ok $? "they load: the root is up and /var/tmp is ext4"
	grep -q '"entry": "pvh"' "$WORK/vm-tree/vm.json"
	ok $? "the xz bzImage boots unpacked, through its PVH entry"
else
	for i in 1 2 3 4 5; do
		ok 0 "# SKIP no zstd or xz, or the modules are compressed"
	done
fi
rm -rf "$tree"

# A command that succeeds in a guest whose kernel warned (at warning
# level, which a quiet console does not show): its status comes back, with
# a warning naming the kernel's, found in the log the guest saved.  The
# first report is the one named, and an emulated CPU starved for 40 s by
# a host loaded far beyond its cores reports a soft lockup first (a true
# report, of the host): nosoftlockup keeps this boot to the test's.
rb vm --kernel "$kernel" --memory 512M --cpus 1 --scratch 0 \
    --append nosoftlockup --out "$WORK/vm-report" \
    -- sh -c 'echo "<4>WARNING: warned for the test" >/dev/kmsg'
expect_rc 0 "a command that succeeds despite a kernel warning"
expect_err 'warning: vm: the guest kernel reported "WARNING: warned for the test"' \
    "the kernel's warning is named"
grep -q '"status": "complete"' "$WORK/vm-report/vm.json" &&
    grep -q '"kernel_report": "WARNING: warned for the test"' \
    "$WORK/vm-report/vm.json"
ok $? "vm.json: complete, the kernel's report"
grep -q '^\[ *[0-9.]*\] WARNING: warned for the test' "$WORK/vm-report/vm-dmesg.log" &&
    grep -q '^\[ *0\.000000\] Linux version' "$WORK/vm-report/vm-dmesg.log" &&
    ! grep -q 'warned for the test' "$WORK/vm-report/vm-console.log"
ok $? "vm-dmesg.log has the guest kernel's whole log, as dmesg shows it"

# A guest kernel that panics: QEMU exits as after a power off, and the
# console's panic message is what the user is told (not the kernel log an
# earlier boot left in the directory).
mkdir -p "$WORK/vm-panic"
echo '[    1.000000] WARNING: from an earlier boot' >"$WORK/vm-panic/vm-dmesg.log"
rb vm --kernel "$kernel" --memory 512M --cpus 1 --scratch 64M \
    --out "$WORK/vm-panic" -- sh -c 'echo c >/proc/sysrq-trigger; sleep 60'
expect_rc 3 "a guest kernel that panics"
expect_err 'guest kernel panicked .*"Kernel panic - not syncing: sysrq triggered crash"' \
    "the panic is named"
grep -q '"reason": "kernel panic"' "$WORK/vm-panic/vm.json" &&
    grep -q '"kernel_report": "Kernel panic - not syncing: sysrq triggered crash"' \
    "$WORK/vm-panic/vm.json"
ok $? "vm.json: failed, kernel panic, its message"
[ ! -e "$WORK/vm-panic/vm-dmesg.log" ]
ok $? "the earlier boot's kernel log is gone"

# The same directory again, while a control directory is there.
mkdir "$out/.regionbench-vm"
rb vm --kernel "$kernel" --out "$out" -- true
expect_rc 2 "a results directory another boot is using"
expect_err "another regionbench vm is using it" "says so"
rmdir "$out/.regionbench-vm"

# An interrupt during the boot stops QEMU and removes the control
# directory and the scratch image (exit 130).
intr="$WORK/vm-intr"
"$REGIONBENCH" vm --kernel "$kernel" --memory 512M --cpus 1 --scratch 64M \
    --out "$intr" -- sleep 1000 >"$WORK/intr.out" 2>"$WORK/intr.err" &
pid=$!
i=0
while [ ! -e "$intr/vm.json" ] && [ $i -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -INT $pid
wait $pid
RC=$?
cp "$WORK/intr.out" "$WORK/out"
cp "$WORK/intr.err" "$WORK/err"
expect_rc 130 "an interrupt stops the boot"
expect_err "interrupted" "says it was interrupted"
grep -q '"status": "interrupted"' "$intr/vm.json"
ok $? "vm.json: interrupted"
[ ! -e "$intr/.regionbench-vm" ]
ok $? "the control directory and scratch image are removed"
! pgrep -f -- "$intr" >/dev/null
ok $? "no QEMU left"

# A guest that never finishes: killed at --timeout, exit 3, console kept.
hang="$WORK/vm-hang"
# Its kernel reports a bug first (an error-level line as an oops prints).
rb vm --kernel "$kernel" --memory 512M --cpus 1 --scratch 0 \
    --timeout 25s --out "$hang" \
    -- sh -c 'echo "<3>BUG: stuck for the test" >/dev/kmsg; sleep 1000'
expect_rc 3 "a guest that never powers off is killed at --timeout"
expect_err 'did not finish within 25s.*reported "BUG: stuck for the test"' \
    "says it timed out, and what the guest kernel reported"
grep -q '"status": "failed"' "$hang/vm.json" &&
    grep -q '"reason": "timeout"' "$hang/vm.json" &&
    grep -q '"kernel_report": "BUG: stuck for the test"' "$hang/vm.json"
ok $? "vm.json: failed, timeout, the kernel's report"
[ -s "$hang/vm-console.log" ]
ok $? "the console is kept"
[ ! -e "$hang/.regionbench-vm" ]
ok $? "nothing left of the control directory"
! pgrep -f -- "$hang" >/dev/null
ok $? "no QEMU left"

done_testing
