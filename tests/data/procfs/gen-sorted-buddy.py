# Generates tests/fixtures/proc/sorted-buddy-3.12 from the 3.10 set's zoneinfo
# body and the sorted-buddy v4 formats (notes section 4).  Deterministic.
import json, random, re, sys
random.seed(312)
src = open(sys.argv[1] + '/3.10/zoneinfo').read()
out = sys.argv[2]
MT = ['Unmovable', 'Reclaimable', 'Movable', 'Reserve', 'Isolate']
NORD = 11
PB = 512
# zone: (start_pfn, spanned, present, managed, [region present])
zones = [
    ('DMA', 16, 4080, 3983, 3962, [3983]),
    ('DMA32', 4096, 1044480, 782303, 765342, [126943] + [131072] * 5),
    ('Normal', 1048576, 262144, 262144, 258025, [131072, 131072]),
]
def gen_region(present, reserve, dma):
    nblocks = (present + PB - 1) // PB
    blocks = {m: 0 for m in MT}
    blocks['Reserve'] = reserve
    blocks['Unmovable'] = max(1, nblocks // 40) if not dma else 1
    blocks['Reclaimable'] = nblocks // 90
    blocks['Movable'] = nblocks - sum(blocks.values())
    free = {m: [0] * NORD for m in MT}
    budget = int(present * random.uniform(0.35, 0.8))
    for m in MT:
        if m == 'Isolate':
            continue
        cap = min(blocks[m] * PB + 1024, budget)
        used = 0
        for o in range(NORD):
            if m == 'Movable':
                hi = {0: 900, 1: 600, 2: 400, 3: 250, 4: 150, 5: 90, 6: 60, 7: 40, 8: 20, 9: 12, 10: 60}[o]
            elif m == 'Reserve':
                hi = 1 if o >= 9 else 0
            else:
                hi = max(0, 300 >> o)
            if dma:
                hi = min(hi, 8 if o < 10 else 3)
            n = random.randint(0, hi)
            while n and used + (n << o) > cap:
                n -= 1
            free[m][o] = n
            used += n << o
        budget -= used
    buddy = [sum(free[m][o] for m in MT) for o in range(NORD)]
    total = sum(c << o for o, c in enumerate(buddy))
    assert total <= present
    return dict(present=present, free=total, buddy=buddy, mtfree=free, blocks=blocks)

regions = {}
for name, start, sp, pr, mg, rp in zones:
    regions[name] = [gen_region(p, 2 if i == 0 and name != 'DMA' else (1 if name == 'DMA' else 0), name == 'DMA')
                     for i, p in enumerate(rp)]
    assert sum(rp) == pr

# zoneinfo: take each 3.10 block, replace figures, add nr_alloc_batch (3.12)
# and the v4 per-region table after managed.
blocks = re.split(r'(?m)^(?=Node )', src)[1:]
zi = []
for blk, (name, start, sp, pr, mg, rp) in zip(blocks, zones):
    regs = regions[name]
    zfree = sum(r['free'] for r in regs)
    lines = blk.rstrip('\n').split('\n')
    outl = []
    for ln in lines:
        if ln.startswith('  pages free'):
            ln = '  pages free     %d' % zfree
        elif ln.startswith('        spanned'):
            ln = '        spanned  %d' % sp
        elif ln.startswith('        present'):
            ln = '        present  %d' % pr
        elif ln.startswith('        managed'):
            outl.append('        managed  %d' % mg)
            outl.append('')
            outl.append('Per-region page stats\t present\t free')
            outl.append('')
            for i, r in enumerate(regs):
                outl.append('\tRegion %6d \t %6d \t %6d' % (i, r['present'], r['free']))
            outl.append('')
            continue
        elif ln.startswith('    nr_free_pages'):
            outl.append('    nr_free_pages %d' % zfree)
            ln = '    nr_alloc_batch %d' % (sum(rp) // 1000 + 6)
        elif ln.startswith('  start_pfn:'):
            ln = '  start_pfn:         %d' % start
        elif ln.startswith('        protection:'):
            ln = {'DMA': '        protection: (0, 2989, 3996, 3996)',
                  'DMA32': '        protection: (0, 0, 1007, 1007)',
                  'Normal': '        protection: (0, 0, 0, 0)'}[name]
        outl.append(ln)
    zi.append('\n'.join(outl) + '\n')
open(out + '/zoneinfo', 'w').write(''.join(zi))

# buddyinfo: "Node %d, zone %8s \n", "\t\t Region %6d " + "%6lu " ... "\n", extra "\n"
bi = []
for name, *_ in zones:
    bi.append('Node %d, zone %8s \n' % (0, name))
    for i, r in enumerate(regions[name]):
        bi.append('\t\t Region %6d ' % i + ''.join('%6d ' % c for c in r['buddy']) + '\n')
    bi.append('\n')
open(out + '/buddyinfo', 'w').write(''.join(bi))

# pagetypeinfo (v4 14/40 and the 27-character block header)
pt = ['Page block order: 9\n', 'Pages per block:  512\n', '\n']
pt.append('%-43s ' % 'Free pages count per migrate type at order' + ''.join('%6d ' % o for o in range(NORD)) + '\n')
for name, *_ in zones:
    regs = regions[name]
    for m in MT:
        row = [sum(r['mtfree'][m][o] for r in regs) for o in range(NORD)]
        pt.append('Node %4d, zone %8s, type %12s ' % (0, name, m) + ''.join('%6d ' % c for c in row) + '\n')
    pt.append('\n')
    for m in MT:
        for i, r in enumerate(regs):
            pt.append('Node %4d, zone %8s, R%3d %12s ' % (0, name, i, m) + ''.join('%6d ' % c for c in r['mtfree'][m]) + '\n')
pt.append('\n' + 'Number of blocks type      ' + ''.join('%12s ' % m for m in MT) + '\n')
for name, *_ in zones:
    regs = regions[name]
    pt.append('Node %d, zone %8s      ' % (0, name) + ''.join('%12d ' % sum(r['blocks'][m] for r in regs) for m in MT) + '\n')
    pt.append('\n')
    for i, r in enumerate(regs):
        pt.append('Node %d, zone %8s R%3d ' % (0, name, i) + ''.join('%12d ' % r['blocks'][m] for m in MT) + '\n')
open(out + '/pagetypeinfo', 'w').write(''.join(pt))

exp = {'migratetypes': MT, 'mixed_blocks_section': False, 'orders': NORD,
       'pageblock_order': 9, 'pagetypeinfo_node_sections': 1, 'zones': []}
for name, start, sp, pr, mg, rp in zones:
    for i, r in enumerate(regions[name]):
        exp['zones'].append({'node': 0, 'region': i, 'zone': name, 'populated': True,
                             'present': r['present'], 'free': r['free'], 'buddy': r['buddy'],
                             'blocks': r['blocks'], 'ptype_overflow': False,
                             'zone_free': sum(x['free'] for x in regions[name]),
                             'zone_spanned': sp, 'zone_start_pfn': start})
json.dump(exp, open(out + '/expected.json', 'w'), indent=1, sort_keys=True)
open(out + '/expected.json', 'a').write('\n')
