# Regenerates tests/data/procfs/bad/ and warn/ from the fixture sets:
# each case is a proc directory (zoneinfo, buddyinfo, pagetypeinfo) with one
# file broken, plus "message": a substring the error must contain.
# Run from the top of the tree: python3 tests/data/procfs/make-bad.py
import os, random, shutil

FIX = 'tests/fixtures/proc'
OUT = 'tests/data/procfs'

def case(kind, name, base, message, edit):
    d = os.path.join(OUT, kind, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    files = {}
    for f in ('zoneinfo', 'buddyinfo', 'pagetypeinfo'):
        files[f] = open(os.path.join(FIX, base, f), 'rb').read()
    edit(files)
    for f, data in files.items():
        open(os.path.join(d, f), 'wb').write(data)
    open(os.path.join(d, 'message'), 'w').write(message + '\n')

def sub(f, old, new, count=1):
    def edit(files):
        assert old in files[f], (f, old)
        files[f] = files[f].replace(old, new, count)
    return edit

def setf(f, data):
    def edit(files):
        files[f] = data
    return edit

def other(f, base):
    def edit(files):
        files[f] = open(os.path.join(FIX, base, f), 'rb').read()
    return edit

random.seed(2)
garbage = bytes(random.choice(range(0x80, 0x100)) for _ in range(3000))

zi618 = open(os.path.join(FIX, '6.18', 'zoneinfo'), 'rb').read()
dma32 = zi618[zi618.index(b'Node 0, zone    DMA32'):zi618.index(b'Node 0, zone   Normal')]

B = 'bad'
case(B, 'empty-zoneinfo', '6.18', 'zoneinfo:1: expected a zone header',
     setf('zoneinfo', b''))
case(B, 'empty-buddyinfo', '6.18', 'buddyinfo:1: expected buddyinfo rows',
     setf('buddyinfo', b''))
case(B, 'empty-pagetypeinfo', '6.18', "pagetypeinfo:1: expected 'Page block order: N'",
     setf('pagetypeinfo', b''))
case(B, 'truncated-zoneinfo', '6.18', 'zoneinfo:200: expected a newline at the end of the last line',
     lambda f: f.__setitem__('zoneinfo', b'\n'.join(f['zoneinfo'].split(b'\n')[:199]) + b'\n      nr_zone_ina'))
case(B, 'truncated-zoneinfo-block', '6.18', "zoneinfo:145: expected a 'start_pfn:' line in the block of Node 0, zone Normal",
     lambda f: f.__setitem__('zoneinfo', b'\n'.join(f['zoneinfo'].split(b'\n')[:185]) + b'\n'))
case(B, 'truncated-buddyinfo', '6.18', 'buddyinfo:3: expected a newline at the end of the last line',
     lambda f: f.__setitem__('buddyinfo', f['buddyinfo'][:-12]))
case(B, 'garbage-zoneinfo', '6.18', 'zoneinfo:1: expected a zone header',
     setf('zoneinfo', garbage.replace(b'\x85', b'\n')))
case(B, 'garbage-line-zoneinfo', '6.18', 'zoneinfo:60: expected a zoneinfo line',
     lambda f: f.__setitem__('zoneinfo', b'\n'.join(
         l if i != 59 else b'      ' + garbage[:40] for i, l in enumerate(f['zoneinfo'].split(b'\n')))))
case(B, 'garbage-buddyinfo', '6.18', 'buddyinfo:2: expected a buddyinfo row',
     sub('buddyinfo', b'Node 0, zone    DMA32', garbage[:21]))
case(B, 'overflow-zoneinfo', '6.18', "zoneinfo:54: expected free pages after 'pages free' below 2^64",
     sub('zoneinfo', b'pages free     3840', b'pages free     184467440737095516160'))
case(B, 'overflow-buddyinfo', '6.18', 'buddyinfo:3: expected a free block count below 2^64',
     sub('buddyinfo', b'   1013 ', b' 99999999999999999999999 '))
case(B, 'overflow-shift-buddyinfo', '6.18', 'buddyinfo:3: expected free block counts that fit 64 bits as pages',
     sub('buddyinfo', b'   1013 ', b' 18446744073709551615 '))
case(B, 'negative-zoneinfo', '6.18',
     "zoneinfo:60: expected a page count after 'spanned' (an unsigned number), found '-4095'",
     sub('zoneinfo', b'spanned  4095', b'spanned  -4095'))
case(B, 'negative-buddyinfo', '6.18', "buddyinfo:1: expected a free block count (an unsigned number), found '-1'",
     sub('buddyinfo', b'     1      1      3 ', b'     1     -1      3 '))
case(B, 'node-index', '6.18', 'zoneinfo:1: expected a node number from 0 to 1023, found 4096',
     sub('zoneinfo', b'Node 0, zone      DMA', b'Node 4096, zone      DMA'))
case(B, 'region-index', 'patched-2.6.39', 'zoneinfo:1: expected a region number from 0 to 65535, found 70000',
     sub('zoneinfo', b'Node 0, Region 0, zone   Normal', b'Node 0, Region 70000, zone   Normal'))
case(B, 'region-index-buddyinfo', 'patched-2.6.39', 'buddyinfo:2: expected a region number from 0 to 65535, found 123456',
     sub('buddyinfo', b'REG 1,', b'REG 123456,'))
case(B, 'duplicate-zone', '6.18', 'zoneinfo:215: expected each zone once, found Node 0, zone DMA32 a second time',
     lambda f: f.__setitem__('zoneinfo', f['zoneinfo'] + dma32))
case(B, 'duplicate-buddyinfo', '6.18', 'buddyinfo:4: expected each zone once, found Node 0, zone Normal a second time',
     lambda f: f.__setitem__('buddyinfo', f['buddyinfo'] + f['buddyinfo'].split(b'\n')[2] + b'\n'))
case(B, 'mixed-patched-zoneinfo-plain-buddyinfo', 'patched-2.6.39-2node',
     "buddyinfo:1: expected memory-region 'Node N, REG R, zone NAME' rows like the zoneinfo read with it, found a mainline",
     other('buddyinfo', '6.18'))
case(B, 'mixed-plain-zoneinfo-patched-buddyinfo', '6.18',
     "buddyinfo:1: expected mainline 'Node N, zone NAME' rows like the zoneinfo read with it, found a memory-region",
     other('buddyinfo', 'patched-2.6.39-2node'))
case(B, 'mixed-plain-zoneinfo-patched-pagetypeinfo', '6.18',
     'pagetypeinfo:5: expected mainline rows like the zoneinfo read with it, found a memory-region',
     other('pagetypeinfo', 'patched-2.6.39'))
case(B, 'mixed-headers-zoneinfo', 'patched-2.6.39-2node',
     'zoneinfo:166: expected a header like line 1',
     sub('zoneinfo', b'Node 1, Region 0, zone   Normal', b'Node 1, zone   Normal'))
case(B, 'columns-buddyinfo', '6.18', 'buddyinfo:2: expected 11 order columns like line 1, found 10',
     sub('buddyinfo', b'    752 ', b' '))
case(B, 'columns-pagetypeinfo', '6.18', 'pagetypeinfo:4: expected 11 orders like buddyinfo, found 12',
     sub('pagetypeinfo', b'     10 \n', b'     10     11 \n'))
case(B, 'columns-pagetypeinfo-row', '6.18', 'pagetypeinfo:6: expected 11 counts like the header at line 4, found 10',
     sub('pagetypeinfo', b'      1      3 \nNode    0, zone      DMA, type  Reclaimable', b'      3 \nNode    0, zone      DMA, type  Reclaimable'))
case(B, 'columns-pagetypeinfo-blocks', '6.18', 'pagetypeinfo:23: expected 5 counts like the header at line 21, found 4',
     sub('pagetypeinfo', b'         1528            0            0            0 ', b'         1528            0            0 '))
case(B, 'crlf-zoneinfo', '6.18', 'zoneinfo:1: expected lines ending in LF, found a carriage return',
     lambda f: f.__setitem__('zoneinfo', f['zoneinfo'].replace(b'\n', b'\r\n')))
case(B, 'crlf-buddyinfo', '6.18', 'buddyinfo:1: expected lines ending in LF, found a carriage return',
     lambda f: f.__setitem__('buddyinfo', f['buddyinfo'].replace(b'\n', b'\r\n')))
case(B, 'zone-name-too-long', '6.18', 'zoneinfo:99: expected a zone name (1 to 15 printable characters)',
     sub('zoneinfo', b'Node 0, zone    DMA32', b'Node 0, zone DMA32DMA32DMA32DMA32'))
case(B, 'wrong-file', '6.18', "zoneinfo:1: expected the end of the zone header",
     lambda f: f.__setitem__('zoneinfo', f['buddyinfo']))
case(B, 'no-populated-zone', '5.4', 'zoneinfo:18: expected at least one populated zone',
     lambda f: f.__setitem__('zoneinfo', f['zoneinfo'][f['zoneinfo'].index(b'Node 0, zone  Movable'):]))

W = 'warn'
case(W, 'buddyinfo-missing-zone', '6.18', 'zoneinfo has Node 0, zone DMA32, buddyinfo has no row for it',
     sub('buddyinfo', b'Node 0, zone    DMA32      4      1      2      2      2      2      1      4      4      2    752 \n', b''))
case(W, 'buddyinfo-drift', '6.18', 'buddyinfo Node 0, zone Normal: free blocks hold 1849115 pages, zoneinfo says 1859355 free',
     sub('buddyinfo', b'499   1013 \n', b'499   1003 \n'))
case(W, 'buddyinfo-extra-zone', '6.18', 'buddyinfo has Node 1, zone Normal, zoneinfo does not',
     lambda f: f.__setitem__('buddyinfo', f['buddyinfo'] + b'Node 1, zone   Normal      1      1      6    436    290    232    593   1688   1160    499   1013 \n'))
