# regionbench vm: option and input errors, all caught before QEMU starts
# (exit 2 with a message saying what is wrong; nothing written).
. "$top_srcdir/tests/cli-lib.sh"

# A file that looks like a bzImage of kernel 6.1.0-fake: the boot
# protocol's "HdrS" at 0x202 and kernel_version (0x20e) pointing at the
# release string at 0x200 + 0x100.
fake="$WORK/vmlinuz-6.1.0-fake"
dd if=/dev/zero of="$fake" bs=1024 count=2 2>/dev/null
printf 'HdrS' | dd of="$fake" bs=1 seek=514 conv=notrunc 2>/dev/null
printf '\000\001' | dd of="$fake" bs=1 seek=526 conv=notrunc 2>/dev/null
printf '6.1.0-fake (nobody@nowhere) #1\000' |
    dd of="$fake" bs=1 seek=768 conv=notrunc 2>/dev/null
out="$WORK/vm-results"
export REGIONBENCH_VM_INIT="$top_builddir/bench/regionbench-vm-init"
export XDG_CACHE_HOME="$WORK/cache"

rb vm -- true
expect_rc 2 "no --kernel"
expect_err "vm: --kernel IMAGE is required" "says --kernel is required"

rb vm --kernel "$fake" --out "$out"
expect_rc 2 "no command"
expect_err "no command to run" "says there is no command"

rb vm --kernel "$fake" --nodes 0 --out "$out" -- true
expect_rc 2 "--nodes 0"
expect_err "nodes.*(range|at least)" "says --nodes is out of range"

rb vm --kernel "$fake" --accel xen --out "$out" -- true
expect_rc 2 "--accel xen"
expect_err "accel" "names --accel"

rb vm --kernel "$fake" --memory 3G --nodes 2 --cpus 0 --out "$out" -- true
expect_rc 2 "--cpus 0"

rb vm --kernel "$fake" --memory 1000M --nodes 3 --out "$out" -- true
expect_rc 2 "memory that does not split into whole-MiB nodes"
expect_err "do not split into 3 nodes" "says the memory does not split"

rb vm --kernel "$fake" --memory 200M --nodes 2 --out "$out" -- true
expect_rc 2 "less than 128M per node"
expect_err "at least 128M per node" "says 128M per node"

rb vm --kernel "$fake" --memory 4T --out "$out" -- true
expect_rc 3 "more memory than the host can spare"
expect_err "more than the host can spare \\(.* available\\)" \
    "says how much the host has"

rb vm --kernel "$WORK/none" --out "$out" -- true
expect_rc 2 "a kernel that does not exist"
expect_err "none: No such file" "names the missing file"

printf 'not a kernel\n' >"$WORK/notakernel"
rb vm --kernel "$WORK/notakernel" --out "$out" -- true
expect_rc 2 "an image that is not a kernel"
expect_err "notakernel: not a kernel image" "says it is not a kernel image"

mkdir -p "$WORK/linux/arch/x86"
rb vm --kernel "$WORK/linux" --out "$out" -- true
expect_rc 2 "a directory that is no built kernel tree"
expect_err "linux: a directory without arch/x86/boot/bzImage" \
    "names the image it looked for"
mkdir "$WORK/linux/arch/x86/boot"
printf 'not a kernel\n' >"$WORK/linux/arch/x86/boot/bzImage"
rb vm --kernel "$WORK/linux" --out "$out" -- true
expect_err "linux/arch/x86/boot/bzImage: not a kernel image" \
    "a tree's image is what is read"

mkdir -p "$WORK/lib/modules/5.10.0-other/kernel"
: >"$WORK/lib/modules/5.10.0-other/modules.order"
rb vm --kernel "$fake" --modules "$WORK/lib/modules/5.10.0-other" \
    --out "$out" -- true
expect_rc 2 "a modules directory of another version"
expect_err "modules of kernel 5.10.0-other, the image is 6.1.0-fake" \
    "names both versions"

rb vm --kernel "$fake" --modules "$WORK/nomodules" --out "$out" -- true
expect_rc 2 "a modules directory that does not exist"

# A modules tree without the drivers the guest needs: exit 3 naming the
# kernel option (when QEMU is there to get that far).
if command -v qemu-system-x86_64 >/dev/null; then
	mkdir -p "$WORK/lib/modules/6.1.0-fake/kernel"
	XDG_CACHE_HOME="$WORK/cache" "$REGIONBENCH" vm --kernel "$fake" \
	    --modules "$WORK/lib/modules/6.1.0-fake" --out "$out" -- true \
	    >"$WORK/out" 2>"$WORK/err" </dev/null
	RC=$?
	expect_rc 3 "a kernel without the 9p and virtio drivers"
	expect_err "lacks virtio_pci.*CONFIG_VIRTIO_PCI=y or =m" \
	    "names the kernel option to turn on"
fi

# No QEMU on PATH: exit 3 naming the package.
PATH=/nonexistent "$REGIONBENCH" vm --kernel "$fake" --out "$out" -- true \
    >"$WORK/out" 2>"$WORK/err" </dev/null
RC=$?
expect_rc 3 "no QEMU"
expect_err "apt-get install qemu-system-x86" "names the package to install"

# regionbench ab checks both sides before its first boot.
rb ab --out "$out" -- quick
expect_rc 2 "ab: no --kernel"
expect_err "ab: --kernel IMAGE is required" "ab: says --kernel is required"

rb ab --kernel "$fake" --kernel-b "$WORK/notakernel" --out "$out"
expect_rc 2 "ab: kernel B is not a kernel"
expect_err "side B \\(b\\): --kernel .*notakernel: not a kernel image" \
    "ab: names the side and the file, before any boot"

rb ab --kernel "$fake" --modules-b "$WORK/lib/modules/5.10.0-other" \
    --label-b patched --out "$out"
expect_rc 2 "ab: modules of another version for B"
expect_err "side B \\(patched\\): --modules .*the image is 6.1.0-fake" \
    "ab: names B's label and both versions"
grep -q 'boot 1/' "$WORK/err"
[ $? -ne 0 ]
ok $? "ab: no boot was started"

rb ab --kernel "$fake" --correction bonferroni --out "$out"
expect_rc 2 "ab: an unknown gate correction"
expect_err "ab: --correction: expected none or holm, not 'bonferroni'" \
    "ab: says what it expects, before any boot"

rb ab --kernel "$fake" --label-a same --label-b same --out "$out"
expect_rc 2 "ab: the same label on both sides"
expect_err "must differ" "ab: says the labels must differ"

[ ! -e "$out" ]
ok $? "nothing was written"

rb vm --help
expect_rc 0 "--help"
expect_out "--kernel IMAGE" "--help shows the usage"

done_testing
