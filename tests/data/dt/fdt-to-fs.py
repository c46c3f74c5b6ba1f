#!/usr/bin/env python3
"""Expand a flattened device tree (.dtb) into a directory the way the kernel
shows it under /proc/device-tree: one directory per node, one file per
property holding its raw bytes. Used once to make the fixture
rk3328-roc-cc.fs/ from rk3328-roc-cc.dts (dtc -I dts -O dtb), and
rk3328-roc-cc.dtc-fs.dts is `dtc -I fs -O dts` of that directory.
Usage: fdt-to-fs.py FILE.dtb DIR"""
import os, struct, sys

def main(dtb_path, out):
    b = open(dtb_path, 'rb').read()
    magic, total, off_struct, off_strings = struct.unpack('>IIII', b[:16])
    assert magic == 0xd00dfeed, 'not a dtb'
    pos, path = off_struct, [out]
    def name_at(o):
        return b[off_strings + o:b.index(b'\0', off_strings + o)].decode()
    while True:
        tag, = struct.unpack('>I', b[pos:pos + 4]); pos += 4
        if tag == 1:  # FDT_BEGIN_NODE
            end = b.index(b'\0', pos)
            name = b[pos:end].decode() or ''
            pos = (end + 4) & ~3
            path.append(os.path.join(path[-1], name) if name else path[-1])
            os.makedirs(path[-1], exist_ok=True)
            with open(os.path.join(path[-1], 'name'), 'wb') as f:  # as the kernel adds it
                f.write(name.split('@')[0].encode() + b'\0')
        elif tag == 2:  # FDT_END_NODE
            path.pop()
        elif tag == 3:  # FDT_PROP
            length, nameoff = struct.unpack('>II', b[pos:pos + 8]); pos += 8
            with open(os.path.join(path[-1], name_at(nameoff)), 'wb') as f:
                f.write(b[pos:pos + length])
            pos = (pos + length + 3) & ~3
        elif tag == 4:  # FDT_NOP
            pass
        elif tag == 9:  # FDT_END
            break

main(sys.argv[1], sys.argv[2])
