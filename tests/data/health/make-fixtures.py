#!/usr/bin/env python3
"""Write the raw health files (mmc-health --from) of this directory.

Each block is built at the offsets the published readers use, from the values
in the source README.md names; run it again after changing one:
    tests/data/health/make-fixtures.py
"""
import json, os

here = os.path.dirname(os.path.abspath(__file__))
sandisk_cid = "035344534336344780ffffffff0172a3"  # MID 0x03, OID "SD", "SC64G"
adata_cid = "1d41445553442020109a3b5c7d015a00"    # MID 0x1D, OID "AD" (serial and date made up)
transcend_cid = "744a605553442020104182bbc7010600"  # usbsdmux PR 62's Transcend card
cm4_ext_csd = open(os.path.join(here, "../sysfs/emmc-cm4/sys/kernel/debug/mmc1/mmc1:0001/ext_csd")).read().strip()
cm4_cid = "1501004d384731474303dc0db061506f"


class Block:
    def __init__(self):
        self.b = bytearray(512)

    def text(self, at, s):
        self.b[at:at + len(s)] = s.encode()
        return self

    def u8(self, at, v):
        self.b[at] = v
        return self

    def be(self, at, width, v):
        self.b[at:at + width] = v.to_bytes(width, "big")
        return self

    def le(self, at, width, v):
        self.b[at:at + width] = v.to_bytes(width, "little")
        return self

    def hex(self):
        return self.b.hex()


def raw(name, family, registers, cmd56=(), host=None):
    return {"format": "mmckit-health-raw", "format_version": 1, "tool": "mmc-health", "version": "0.1.0",
            "cards": [{"name": name, "family": family, "registers": registers,
                       "cmd56": [{"layout": l, "blocks": [{"arg": f"0x{a:08x}", "hex": h} for a, h in blocks], "error": e}
                                 for l, blocks, e in cmd56],
                       "host": host or {"ro": False, "force_ro": False, "wp_gpios": None, "disable_wp": None}}]}


def ext_csd_with(life_a, life_b, eol, rev=None):
    b = bytearray.fromhex(cm4_ext_csd)
    b[268], b[269], b[267] = life_a, life_b, eol
    if rev is not None:
        b[192] = rev
    return b.hex()


def two_step_sdce():
    b = Block()
    for i, v in enumerate([0x98, 0x3e, 0xa8, 0x03, 0x7a, 0xe4, 0x08, 0x16, 0x00, 0x20, 0x25, 19, 143]):
        b.u8(i, v)
    b.u8(14, 4).be(16, 2, 12).u8(32, 10).u8(40, 14).be(64, 2, 9981).be(80, 4, 66).be(96, 2, 9997)
    b.be(98, 2, 1).be(100, 2, 1).be(102, 2, 1).be(112, 4, 16).be(328, 4, 2000)
    return b.hex()


def adata_iudd33k():
    b = Block().u8(0, 0x09).u8(1, 0x41).be(24, 2, 10).u8(27, 34).be(36, 4, 1).be(40, 4, 2).be(52, 4, 1).be(56, 4, 11)
    b.be(64, 4, 60351).be(68, 2, 30).u8(70, 100).be(76, 4, 8)
    for i, v in enumerate([0x45, 0x3e, 0x98, 0x03, 0x76, 0x64, 0x1d]):
        b.u8(80 + i, v)
    return b.text(88, "SM2706").be(104, 4, 1000).be(108, 4, 2000).text(128, "V0217 ").be(140, 4, 29).hex()


def transcend_230i():
    b = Block().text(0, "Transcend").u8(16, 0x10).u8(18, 4).u8(19, 3).u8(27, 0x33).le(36, 4, 1).u8(70, 100)
    for i, v in enumerate([0x45, 0x3c, 0x98, 0xb3, 0x76, 0x6b]):
        b.u8(80 + i, v)
    return b.text(88, "SM2707E").text(128, "T0408 ").hex()


def sandisk_worn():
    return Block().text(0, "DS").text(2, "230415").u8(8, 85).u8(11, 0x12).u8(14, 3).be(24, 3, 258) \
        .text(49, "SanDisk Industrial").hex()


def mbr_issue18():
    head = bytes.fromhex(
        "FAB800108ED0BC00B0B800008ED88EC0FBBE007CBF0006B90002F3A4EA210600"
        "00BEBE073804750B83C61081FEFE0775F3EB16B402B001BB007CB2808A74018B"
        "4C02CD13EA007C0000EBFE")
    return (head + bytes(512 - len(head))).hex()


fixtures = {
    "sandisk-worn.json": raw("sandisk-industrial", "sd", {"cid": sandisk_cid},
                             [("sandisk", [(1, sandisk_worn())], "")]),
    "two-step-kingston-sdce.json": raw("kingston-sdce", "sd", {}, [("two_step", [(0x21, two_step_sdce())], "")]),
    "adata-iudd33k.json": raw("adata-iudd33k", "sd", {"cid": adata_cid}, [("adata", [(0x110005f1, adata_iudd33k())], "")]),
    "transcend-230i.json": raw("transcend-230i", "sd", {"cid": transcend_cid},
                               [("transcend", [(0x110005f9, transcend_230i())], "")]),
    "mbr-ld-card.json": raw("ld-card", "sd", {"cid": sandisk_cid}, [("sandisk", [(1, mbr_issue18())], "")]),
    "all-ff.json": raw("ff-card", "sd", {"cid": sandisk_cid}, [("sandisk", [(1, "ff" * 512)], "")]),
    "all-00.json": raw("zero-card", "sd", {}, [("two_step", [(0x21, "00" * 512)], "")]),
    "emmc-cm4.json": raw("mmc1:0001", "mmc", {"cid": cm4_cid, "ext_csd": cm4_ext_csd}),
    "emmc-pre-eol-urgent.json": raw("mmc1:0001", "mmc", {"cid": cm4_cid, "ext_csd": ext_csd_with(0x0a, 0x0b, 3)}),
    "emmc-rev6.json": raw("mmc1:0001", "mmc", {"cid": cm4_cid, "ext_csd": ext_csd_with(0, 0, 0, rev=6)}),
    "sd-switch-on.json": raw("mmc0:4567", "sd", {"cid": sandisk_cid},
                             [("sandisk", [(1, Block().text(0, "DS").u8(8, 3).hex())], "")],
                             {"ro": True, "force_ro": False, "wp_gpios": True, "disable_wp": False}),
}
for name, doc in fixtures.items():
    with open(os.path.join(here, name), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
