# regionbench vm and ab against hostile files and directories, as root
# with another user (nobody) planting them: --out directories and links
# inside them, a poisoned kernel cache or guest init, inputs that would
# exhaust memory or hang (read in a memory cgroup, so a regression cannot
# take the host down), and a vm killed with SIGKILL.
. "$top_srcdir/tests/cli-lib.sh"

vm_test_setup
[ "$(id -u)" -eq 0 ] || skip_all "needs root (the attacks are another user's)"
id nobody >/dev/null 2>&1 || skip_all "no user 'nobody' here"
command -v setpriv >/dev/null || skip_all "no setpriv (util-linux)"
as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}
chmod 755 "$WORK"
vm_quick="--memory 512M --cpus 1 --scratch 0"

# --out owned by another user, who links the console to a root-only file.
secret="$WORK/secret"
echo "root's own" >"$secret"
chmod 600 "$secret"
mkdir "$WORK/theirs"
chown nobody "$WORK/theirs"
as_nobody ln -s "$secret" "$WORK/theirs/vm-console.log"
rb vm --kernel "$kernel" $vm_quick --out "$WORK/theirs" -- true
expect_rc 2 "vm refuses an --out owned by another user"
expect_err 'owned by uid' "and says whose it is"
[ "$(cat "$secret")" = "root's own" ]
ok $? "the linked file is untouched"

# A link as --out, and an --out under a directory others may write to.
mkdir "$WORK/mine"
ln -s "$WORK/mine" "$WORK/link"
rb vm --kernel "$kernel" $vm_quick --out "$WORK/link" -- true
expect_rc 2 "vm refuses an --out that is a symbolic link"
mkdir -m 777 "$WORK/open"
rb vm --kernel "$kernel" $vm_quick --out "$WORK/open/r" -- true
expect_rc 2 "vm refuses an --out under a directory anyone may write to"
expect_err 'writable by others' "and says why"

# ab: a boot directory another user made in advance.
mkdir -p "$WORK/ab"
chmod 777 "$WORK/ab"
as_nobody mkdir "$WORK/ab/a-1"
chmod 755 "$WORK/ab"
rb ab --kernel "$kernel" --append-b "page_alloc.shuffle=1" $vm_quick \
    --boots 2 --out "$WORK/ab" -- quick
expect_rc 2 "ab refuses a boot directory owned by another user"
expect_err 'a-1 is owned by uid' "and names it"

# A link planted in a directory of root's (a stale file from an earlier
# boot, say): replaced by the console, not followed.
ln -s "$secret" "$WORK/mine/vm-console.log"
ln -s "$secret" "$WORK/mine/vm-qemu.log"
rb vm --kernel "$kernel" $vm_quick --out "$WORK/mine" -- true
expect_rc 0 "a boot into a directory with planted links"
[ "$(cat "$secret")" = "root's own" ] && [ ! -L "$WORK/mine/vm-console.log" ] &&
    [ ! -L "$WORK/mine/vm-qemu.log" ]
ok $? "the links are replaced by files, the linked file untouched"

# The cache: owned by another user, or holding a file changed since it
# was built, or a guest init of another user's.
mkdir -p "$WORK/their-cache"
chown nobody "$WORK/their-cache"
XDG_CACHE_HOME="$WORK/their-cache" rb vm --kernel "$kernel" $vm_quick \
    --out "$WORK/c1" -- true
expect_rc 3 "a cache directory owned by another user is refused"
expect_err 'vm cache.*owned by uid' "and named"
cache="$XDG_CACHE_HOME/regionbench/vm"
initrd=$(ls "$cache"/initramfs-*.cpio 2>/dev/null | head -1)
if [ -n "$initrd" ]; then
	printf 'poison' | dd of="$initrd" bs=1 seek=100 conv=notrunc 2>/dev/null
	rb vm --kernel "$kernel" $vm_quick --out "$WORK/c2" -- true
	expect_rc 0 "a changed initramfs in the cache"
	expect_err 'initramfs-.*not what was stored.*built again' \
	    "is noticed and built again"
else
	ok 1 "the cache holds an initramfs after the boots above"
	ok 1 "(nothing to poison)"
fi
cp "$REGIONBENCH_VM_INIT" "$WORK/their-init"
chown nobody "$WORK/their-init"
REGIONBENCH_VM_INIT="$WORK/their-init" rb vm --kernel "$kernel" $vm_quick \
    --out "$WORK/c3" -- true
expect_rc 3 "a guest init owned by another user is refused"
expect_err 'REGIONBENCH_VM_INIT.*owned by uid' "and named"

# Inputs that are not kernels, read in a memory cgroup of 256 MiB.
memcg_setup $((256 << 20))
mkfifo "$WORK/fifo"
truncate -s 20G "$WORK/sparse"
truncate -s 100M "$WORK/sparse-small"
for k in "/dev/zero:character device" "/proc/self/pagemap:a file of /proc" \
    "$WORK/fifo:FIFO" "$WORK/sparse:larger than" \
    "$WORK/sparse-small:not a kernel image"; do
	in_memcg timeout -s KILL 60 "$REGIONBENCH" vm --kernel "${k%%:*}" \
	    --out "$WORK/bad" -- true >"$WORK/out" 2>"$WORK/err" </dev/null
	RC=$?
	expect_rc 2 "--kernel ${k%%:*} is bad input, found without reading it"
	expect_err "${k#*:}" "it is called ${k#*:}"
done

# A vm killed with SIGKILL: QEMU goes with it, and the next boot into the
# same directory takes over the control directory left behind.
killed="$WORK/killed"
"$REGIONBENCH" vm --kernel "$kernel" $vm_quick --out "$killed" \
    -- sleep 1000 >/dev/null 2>&1 </dev/null &
pid=$!
wait_for "QEMU started" pgrep -f -- "path=$killed,mount_tag=out"
ok $? "QEMU runs the guest"
kill -KILL $pid
wait $pid 2>/dev/null
qemu_gone() {
	! pgrep -f -- "path=$killed,mount_tag=out" >/dev/null
}
WAIT_LIMIT=60 wait_for "QEMU gone" qemu_gone
ok $? "QEMU dies with a SIGKILLed vm"
[ -d "$killed/.regionbench-vm" ]
ok $? "the control directory is left behind"
rb vm --kernel "$kernel" $vm_quick --out "$killed" -- true
expect_rc 0 "the next boot into that directory"
expect_err 'left by a boot whose regionbench is gone' "says it took it over"

done_testing
