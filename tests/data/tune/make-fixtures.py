#!/usr/bin/env python3
"""Writes the EXT_CSD fixtures of the mmc-tune unit and CLI tests (one hex
line each, ext_csd[0] first) from the dumps the repository already holds.
Run from the top of the tree; the outputs are committed.

  emmc51-cm4.hex      Raspberry Pi CM4 eMMC 5.1 (EXT_CSD_REV 8), debugfs
                      (tests/data/sysfs/emmc-cm4/.../ext_csd)
  emmc51-aaru.hex     64 GB eMMC 5.1 from Aaru's test data, RST_n already
                      permanently enabled (tests/data/registers.json)
  emmc45-rev6.hex     eMMC 4.5 (EXT_CSD_REV 6) (tests/data/health/emmc-rev6.json)
  emmc441-kylemanna.hex  eMMC 4.41 (EXT_CSD_REV 5), the byte-reversed dump
                      of tests/data/ext_csd put in the modern order
  emmc51-completed.hex   the CM4 dump with partitioning completed: a 1 GiB
                      enhanced area at 0 and GP1 of 512 MiB, as such a
                      device reads (DERIVED: bytes 140-145, 155, 156 set here;
                      no real completed dump was at hand)
"""
import json, pathlib

def hex_of(text):
    return bytes.fromhex(''.join(text.split()))

def find_ext_csd(o):
    if isinstance(o, dict):
        for k, v in o.items():
            if k == 'ext_csd' and isinstance(v, str) and len(''.join(v.split())) == 1024:
                return v
            r = find_ext_csd(v)
            if r: return r
    if isinstance(o, list):
        for v in o:
            r = find_ext_csd(v)
            if r: return r
    return None

out = pathlib.Path('tests/data/tune')
cm4 = hex_of(open('tests/data/sysfs/emmc-cm4/sys/kernel/debug/mmc1/mmc1:0001/ext_csd').read())
regs = json.load(open('tests/data/registers.json'))
aaru = [e for e in regs if e.get('kind') == 'ext_csd' and 'Aaru' in e['card']][0]
rev6 = hex_of(find_ext_csd(json.load(open('tests/data/health/emmc-rev6.json'))))
kyle = hex_of(open('tests/data/ext_csd/reversed-emmc441-kylemanna.hex').read())[::-1]

done = bytearray(cm4)
unit_groups = 1  # ENH_SIZE_MULT / GP_SIZE_MULT count HC_WP_GRP_SIZE x HC_ERASE_GRP_SIZE x 512 KiB
unit = cm4[221] * cm4[224] * 512 * 1024
done[140:143] = ((1 << 30) // unit).to_bytes(3, 'little')   # ENH_SIZE_MULT: 1 GiB
done[136:140] = (0).to_bytes(4, 'little')                   # ENH_START_ADDR: 0
done[143:146] = ((512 << 20) // unit).to_bytes(3, 'little') # GP_SIZE_MULT_1: 512 MiB
done[156] = 0x01                                            # PARTITIONS_ATTRIBUTE: user area enhanced
done[155] = 0x01                                            # PARTITION_SETTING_COMPLETED

for name, data in [('emmc51-cm4', cm4), ('emmc51-aaru', hex_of(aaru['hex'])), ('emmc45-rev6', rev6),
                   ('emmc441-kylemanna', kyle), ('emmc51-completed', bytes(done))]:
    assert len(data) == 512, name
    (out / f'{name}.hex').write_text(data.hex() + '\n')
